import type { ReactNode } from 'react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { cn } from '@/web/lib/utils';

/**
 * The inventory's form dialogs (add a unit, import units, a model): a titled dialog that scrolls
 * within the viewport, as the forms are taller than a phone's screen.
 */
export function FormDialog({
  open,
  onClose,
  title,
  description,
  wide,
  testId,
  children,
}: {
  open: boolean;
  onClose(): void;
  title: ReactNode;
  description: ReactNode;
  /** For the CSV import's preview table. */
  wide?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        className={cn('max-h-[calc(100dvh-2rem)] overflow-y-auto', wide ? 'sm:max-w-2xl' : 'sm:max-w-xl')}
        data-testid={testId}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}
