import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/web/lib/utils';

/** The alert region of a form: always present, filled when the server refuses the request. */
export function FormAlert({ message, className }: { message: ReactNode | null; className?: string }) {
  return (
    <div role="alert" aria-live="assertive" className={cn(!message && 'hidden', className)}>
      {message && (
        <div
          className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2.5 text-sm text-foreground"
          data-testid="alert-form-error"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          <div>{message}</div>
        </div>
      )}
    </div>
  );
}
