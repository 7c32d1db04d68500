import type { AuditRow } from '@/contracts/audit';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { cn } from '@/web/lib/utils';
import { diffEntries, formatAuditTime } from './audit-format';

/** One audit entry: who, when, where, and its before and after values side by side. */
export function AuditDetailDialog({ row, onClose }: { row: AuditRow | null; onClose: () => void }) {
  return (
    <Dialog open={!!row} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] max-w-3xl overflow-y-auto" data-testid="dialog-audit-detail">
        {row && (
          <>
            <DialogHeader>
              <DialogTitle>Audit entry #{row.id}</DialogTitle>
              <DialogDescription>
                <code>{row.action}</code> on {row.entityType}
                {row.entityId ? ` ${row.entityId}` : ''}
              </DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[8rem_1fr]">
              <dt className="text-muted-foreground">Time</dt>
              <dd>{formatAuditTime(row.at)}</dd>
              <dt className="text-muted-foreground">Actor</dt>
              <dd className="break-all">
                {row.actorLabel ?? 'System'}
                {row.actorId && <span className="text-muted-foreground"> · {row.actorId}</span>}
              </dd>
              <dt className="text-muted-foreground">Address</dt>
              <dd>{row.ip ?? '—'}</dd>
              <dt className="text-muted-foreground">Hash</dt>
              {row.hash ? (
                <dd className="break-all font-mono text-xs">{row.hash}</dd>
              ) : (
                // Written moments ago: the sealer chains it within a second (decision 023).
                <dd className="text-muted-foreground" data-testid="text-audit-unsealed">
                  Not sealed yet: entries join the chain within a second of being written.
                </dd>
              )}
            </dl>
            <Changes before={row.before} after={row.after} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Changes({ before, after }: { before: unknown; after: unknown }) {
  if ((before === null || before === undefined) && (after === null || after === undefined)) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="text-audit-no-changes">
        This entry records an event without before or after values.
      </p>
    );
  }
  const rows = diffEntries(before, after);
  if (!rows) {
    return (
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <JsonBlock label="Before" value={before} />
        <JsonBlock label="After" value={after} />
      </div>
    );
  }
  return (
    <section
      aria-label="Changes"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto rounded-lg border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      data-testid="table-audit-diff"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">Values before and after; changed fields are marked.</caption>
        <thead className="border-b bg-muted/50 text-left text-muted-foreground text-xs uppercase tracking-wide">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Field
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Before
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((entry) => (
            <tr
              key={entry.key}
              className={cn('border-b last:border-0 align-top', entry.changed && 'bg-warning/10')}
              data-changed={entry.changed}
            >
              <th scope="row" className="px-3 py-2 text-left font-medium">
                {entry.key}
                {entry.changed && <span className="sr-only"> (changed)</span>}
              </th>
              <td
                className={cn(
                  'break-all px-3 py-2 font-mono text-xs',
                  entry.changed && 'line-through decoration-destructive/60',
                )}
              >
                {entry.before ?? <span className="text-muted-foreground no-underline">—</span>}
              </td>
              <td className={cn('break-all px-3 py-2 font-mono text-xs', entry.changed && 'font-semibold')}>
                {entry.after ?? <span className="text-muted-foreground">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function JsonBlock({ label, value }: { label: string; value: unknown }) {
  return (
    <div>
      <p className="mb-1 font-medium text-muted-foreground text-xs uppercase tracking-wide">{label}</p>
      <section
        aria-label={`${label} values`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className="max-h-72 overflow-auto rounded-lg bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <pre className="p-3 font-mono text-xs">
          {value === undefined || value === null ? '—' : JSON.stringify(value, null, 2)}
        </pre>
      </section>
    </div>
  );
}
