import { Bot, X } from 'lucide-react';
import { lazy, type ReactElement, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Spinner } from '@/web/components/loaders';
import { cn } from '@/web/lib/utils';
import { ASSISTANT_TITLE } from './messages';

const loadPanel = () => import('./assistant-panel');
const AssistantPanel = lazy(loadPanel);

/**
 * Seed section 2: the floating robot button on every signed-in page. It opens the Finance AI
 * Assistant panel and closes it again; the panel's code is fetched on first use (or when the
 * pointer or focus reaches the button), and the conversation is kept while the panel is closed.
 */
export default function FinanceAssistant(): ReactElement | null {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  const prefetch = () => {
    loadPanel().catch(() => undefined); // A failed load surfaces when the panel opens.
  };
  const toggle = () => {
    setMounted(true);
    setOpen((current) => !current);
  };
  const close = useCallback(() => {
    returnFocus.current = true;
    setOpen(false);
  }, []);

  // After closing from inside the panel, focus goes back to the robot button (hidden on phones
  // while the panel is open, so this waits for the render that shows it again).
  useEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false;
      buttonRef.current?.focus();
    }
  }, [open]);

  return (
    <>
      {mounted && (
        <Suspense fallback={open ? <PanelLoading /> : null}>
          <AssistantPanel open={open} onClose={close} />
        </Suspense>
      )}
      <button
        ref={buttonRef}
        type="button"
        onClick={toggle}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        aria-expanded={open}
        aria-controls={mounted ? 'assistant-panel' : undefined}
        aria-label={open ? `Close ${ASSISTANT_TITLE}` : `Open ${ASSISTANT_TITLE}`}
        title={ASSISTANT_TITLE}
        data-testid="button-assistant-toggle"
        className={cn(
          'fixed right-4 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-40 flex size-13 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg ring-offset-background transition-transform hover:scale-105 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 md:right-6 md:bottom-6 md:size-14 print:hidden',
          open && 'max-md:hidden',
        )}
      >
        {open ? <X className="size-6" aria-hidden="true" /> : <Bot className="size-6" aria-hidden="true" />}
      </button>
    </>
  );
}

function PanelLoading() {
  return (
    <div
      role="status"
      className="fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-40 flex h-40 items-center justify-center gap-2 rounded-t-2xl border bg-card text-muted-foreground text-sm shadow-2xl md:inset-x-auto md:right-6 md:bottom-24 md:w-[26rem] md:rounded-2xl"
    >
      <Spinner className="size-4" />
      Loading the assistant…
    </div>
  );
}
