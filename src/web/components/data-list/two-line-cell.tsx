import type { ReactNode } from 'react';
import { cn } from '@/web/lib/utils';

interface TwoLineCellProps {
  main: ReactNode;
  sub: ReactNode;
  mainClassName?: string;
  subClassName?: string;
}

/**
 * A list cell with a main line and a small muted line under it (a name and its phone, a model and
 * its serial): the main line truncates so a long name does not widen the table.
 */
export function TwoLineCell({ main, sub, mainClassName, subClassName }: TwoLineCellProps) {
  return (
    <div className="min-w-0">
      <div className={cn('truncate', mainClassName)}>{main}</div>
      <div className={cn('text-muted-foreground text-xs', subClassName)}>{sub}</div>
    </div>
  );
}
