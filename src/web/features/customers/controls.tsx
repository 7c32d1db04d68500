import type * as React from 'react';
import { cn } from '@/web/lib/utils';

const FIELD =
  'w-full min-w-0 rounded-md border border-input bg-card text-base text-foreground shadow-xs outline-none md:text-sm focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-60';

export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(FIELD, 'min-h-20 px-3 py-2 placeholder:text-muted-foreground', className)}
      {...props}
    />
  );
}
