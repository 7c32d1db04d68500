import type { ReactNode } from 'react';
import { cn } from '@/web/lib/utils';

/**
 * A table in its own scrolling region: named, and reachable with the keyboard so the rows hidden
 * past its edge can be scrolled into view without a mouse (axe: scrollable-region-focusable).
 */
export function TableRegion({
  label,
  className,
  children,
  testId,
}: {
  label: string;
  className?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard
      tabIndex={0}
      className={cn(
        'overflow-auto rounded-lg border outline-none focus-visible:ring-2 focus-visible:ring-ring/40',
        className,
      )}
    >
      <table className="w-full caption-bottom text-sm" data-testid={testId}>
        {children}
      </table>
    </section>
  );
}
