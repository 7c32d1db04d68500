import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** What a list inside a card shows when it has nothing: an icon over a short muted sentence. */
export function EmptyMessage({
  icon: Icon,
  testId,
  children,
}: {
  icon: LucideIcon;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div
      className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground text-sm"
      data-testid={testId}
    >
      <Icon className="size-6" aria-hidden="true" />
      {children}
    </div>
  );
}
