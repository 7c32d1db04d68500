import { Button, type ButtonProps } from '@/web/components/ui/button';
import { TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';

/**
 * A hand-drawn table whose rows end in a button (staff users, invites, audit entries): the
 * headings, and a last column that has no visible heading but is named for screen readers.
 */
export function ActionTableHeader({ headings, actions }: { headings: readonly string[]; actions: string }) {
  return (
    <TableHeader>
      <TableRow>
        {headings.map((heading) => (
          <TableHead key={heading}>{heading}</TableHead>
        ))}
        <TableHead className="text-right">
          <span className="sr-only">{actions}</span>
        </TableHead>
      </TableRow>
    </TableHeader>
  );
}

/** The row's last cell: its outline button, or an empty cell when the row offers no action. */
export function ActionCell({ show = true, ...button }: ButtonProps & { show?: boolean }) {
  return (
    <TableCell className="text-right">{show && <Button variant="outline" size="sm" {...button} />}</TableCell>
  );
}
