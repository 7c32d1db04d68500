import type * as React from 'react';
import { cn } from '@/web/lib/utils';

/** A native select styled like Input: the phone's own picker, keyboard and screen-reader friendly. */
export function NativeSelect({ className, ...props }: React.ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'flex h-9 w-full min-w-0 rounded-md border border-input bg-card px-2.5 py-1 text-base text-foreground shadow-xs outline-none md:text-sm',
        'focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40',
        'aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-60',
        className,
      )}
      {...props}
    />
  );
}
