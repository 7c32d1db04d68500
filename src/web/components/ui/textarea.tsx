import type * as React from 'react';
import { cn } from '@/web/lib/utils';

/** A multi-line text box styled like Input. */
export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'w-full rounded-md border border-input bg-card px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive md:text-sm',
        className,
      )}
      {...props}
    />
  );
}
