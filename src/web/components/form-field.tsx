import type { ReactNode } from 'react';
import { Label } from '@/web/components/ui/label';
import { cn } from '@/web/lib/utils';

export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface FormFieldProps {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
  /** Extra content on the label line (e.g. a link). */
  labelAside?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
}

/** Label, control and the message under it, wired with aria-invalid and aria-describedby. */
export function FormField({ id, label, error, hint, className, labelAside, children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    // Rows packed at the top: beside a taller field in a form's grid (a two-line hint), the label,
    // control and hint stay together instead of spreading over the row's height, so the controls
    // of a row line up.
    <div className={cn('grid grid-cols-1 content-start gap-1.5', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {children({ id, 'aria-invalid': !!error, 'aria-describedby': describedBy })}
      {hint && !error && (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-destructive text-xs font-medium" data-testid={`error-${id}`}>
          {error}
        </p>
      )}
    </div>
  );
}
