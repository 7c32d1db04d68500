import type * as React from 'react';
import { useEffect, useRef, useState } from 'react';
import { cn } from '@/web/lib/utils';

/**
 * Whether the element scrolls sideways, kept current as it or its content resizes: a table wider
 * than its container must be reachable by keyboard to be scrolled (axe `scrollable-region-focusable`),
 * and a tab stop on every table that does not scroll would only be noise.
 */
function useScrollsSideways<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    check();
    return () => observer.disconnect();
  }, []);
  return { ref, scrolls };
}

/**
 * A column a phone leaves out (below the sm breakpoint): its row shows what the column held under
 * its first cell instead, in a span marked `sm:hidden`, so the row's key figures and actions stay
 * in view without a sideways scroll.
 */
export const ON_WIDE = 'hidden sm:table-cell';

/**
 * A column left out below the md breakpoint too (a phone, and a tablet held upright), for the
 * least needed of a wide table; its row shows it under the first cell in a span marked
 * `md:hidden`, or not at all when it repeats what the row says. `Column.wide` in a DataTable.
 */
export const ON_WIDER = 'hidden md:table-cell';

export function Table({ className, ...props }: React.ComponentProps<'table'>) {
  const { ref, scrolls } = useScrollsSideways<HTMLDivElement>();
  return (
    <div
      ref={ref}
      data-slot="table-container"
      className="relative w-full overflow-x-auto focus-visible:outline-2 focus-visible:outline-ring"
      // A container that scrolls is scrolled by keyboard once focused.
      tabIndex={scrolls ? 0 : undefined}
    >
      <table data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return (
    <tr
      data-slot="table-row"
      className={cn('border-b transition-colors hover:bg-muted/50', className)}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: React.ComponentProps<'th'>) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'h-10 whitespace-nowrap px-3 text-left first:pl-6 last:pr-6 align-middle font-medium text-muted-foreground text-xs uppercase tracking-wide',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return (
    <td
      data-slot="table-cell"
      className={cn('whitespace-nowrap px-3 py-2.5 align-middle first:pl-6 last:pr-6', className)}
      {...props}
    />
  );
}

export function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return (
    <caption
      data-slot="table-caption"
      className={cn('mt-4 text-muted-foreground text-sm', className)}
      {...props}
    />
  );
}
