import { ChevronLeft, ChevronRight, Flag, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TutorialStep } from '@/contracts/help';
import { Button } from '@/web/components/ui/button';
import { Progress } from '@/web/components/ui/progress';
import { useTutorialActions } from './help-data';
import { useHelpCentre } from './help-store';

/** How long the player waits for a step's element to appear (pages load on demand). */
export const TARGET_WAIT_MS = 5000;

/** The first element matching the selector that is laid out (a selector may name phone and desktop variants). */
export function findTarget(selector: string): HTMLElement | null {
  let matches: NodeListOf<HTMLElement>;
  try {
    matches = document.querySelectorAll<HTMLElement>(selector);
  } catch {
    return null;
  }
  for (const element of matches) {
    const rect = element.getBoundingClientRect();
    if (rect.width > 0 || rect.height > 0) return element;
  }
  return null;
}

type TargetState = 'none' | 'searching' | 'found' | 'missing';

/**
 * Seed "Tutorial player": name, 'Step n of total', step title, content, optional image, a
 * progress bar, Previous and Next (Finish on the last step). It goes to the step's page and
 * scrolls to and highlights the element named by the step's target. Not modal: the page stays usable.
 */
export function TutorialPlayer() {
  const { player } = useHelpCentre();
  const { next, previous, close } = useTutorialActions();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const [targetState, setTargetState] = useState<TargetState>('none');

  const tutorialId = player?.tutorial.id;
  const step: TutorialStep | undefined = player?.tutorial.steps[player.stepIndex];
  const here = search ? `${location}?${search}` : location;

  // Focus the panel when a tutorial starts, so keyboard users land on it.
  useEffect(() => {
    if (tutorialId) panelRef.current?.focus();
  }, [tutorialId]);

  // Go to the step's page when it names one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the step changes, so the user may wander off during a step
  useEffect(() => {
    if (step?.path && step.path !== here) navigate(step.path);
  }, [step]);

  // Find, scroll to and highlight the step's element once it has appeared (again after a page change).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is a trigger, not an input
  useEffect(() => {
    setTarget(null);
    if (!step?.target) {
      setTargetState('none');
      return;
    }
    const selector = step.target;
    setTargetState('searching');
    const startedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = () => {
      const element = findTarget(selector);
      if (element) {
        element.scrollIntoView({ block: 'center', behavior: 'smooth' });
        setTarget(element);
        setTargetState('found');
      } else if (Date.now() - startedAt > TARGET_WAIT_MS) {
        setTargetState('missing');
      } else {
        timer = setTimeout(look, 100);
      }
    };
    look();
    return () => clearTimeout(timer);
  }, [step, location]);

  if (!player || !step) return null;
  const { tutorial, stepIndex } = player;
  const total = tutorial.steps.length;
  const last = stepIndex >= total - 1;

  return (
    <>
      {target && <Highlight element={target} />}
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="false"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="fixed inset-x-2 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-[60] grid grid-cols-1 max-h-[60vh] gap-3 overflow-y-auto rounded-xl border bg-popover p-4 text-popover-foreground shadow-2xl outline-none focus-visible:ring-2 focus-visible:ring-ring md:inset-x-auto md:right-6 md:bottom-6 md:w-[26rem]"
        data-testid="panel-tutorial-player"
        onKeyDown={(event) => {
          if (event.key === 'Escape') close();
        }}
      >
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id={titleId} className="font-semibold text-sm" data-testid="text-tutorial-name">
              {tutorial.name}
            </h2>
            <p className="text-muted-foreground text-xs" data-testid="text-tutorial-step-count">
              Step {stepIndex + 1} of {total}
            </p>
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="-mt-1 -mr-1 size-8"
            aria-label="Close tutorial"
            onClick={close}
            data-testid="button-close-tutorial"
          >
            <X aria-hidden="true" />
          </Button>
        </div>
        <Progress
          value={((stepIndex + 1) / total) * 100}
          aria-label={`Step ${stepIndex + 1} of ${total}`}
          data-testid="progress-tutorial-player"
        />
        <div aria-live="polite">
          <h3 className="font-medium text-sm" data-testid="text-tutorial-step-title">
            {step.title}
          </h3>
          <p
            className="mt-1 text-muted-foreground text-sm leading-relaxed"
            data-testid="text-tutorial-step-content"
          >
            {step.content}
          </p>
          {targetState === 'missing' && (
            <p className="mt-2 text-muted-foreground text-xs" data-testid="text-tutorial-target-missing">
              The part of the screen this step describes is not shown here (it may need another role, or a
              wider screen).
            </p>
          )}
        </div>
        {step.imageUrl && (
          <img
            src={step.imageUrl}
            alt={step.title}
            className="max-h-40 w-full rounded-lg border object-cover"
          />
        )}
        <div className="flex items-center justify-between gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={previous}
            disabled={stepIndex === 0}
            data-testid="button-tutorial-previous"
          >
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <Button size="sm" onClick={next} data-testid="button-tutorial-next">
            {last ? 'Finish' : 'Next'}
            {last ? <Flag aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
          </Button>
        </div>
      </div>
    </>
  );
}

/** A ring drawn over the highlighted element, following it as the page scrolls or changes. */
function Highlight({ element }: { element: HTMLElement }) {
  const [rect, setRect] = useState<DOMRect | null>(null);
  useEffect(() => {
    let frame = 0;
    let previous = '';
    const update = () => {
      if (!element.isConnected) {
        setRect(null);
        return;
      }
      const next = element.getBoundingClientRect();
      const key = `${next.x},${next.y},${next.width},${next.height}`;
      if (key !== previous) {
        previous = key;
        setRect(next);
      }
      frame = requestAnimationFrame(update);
    };
    update();
    return () => cancelAnimationFrame(frame);
  }, [element]);
  if (!rect) return null;
  const pad = 6;
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none fixed z-[55] rounded-lg ring-4 ring-primary ring-offset-2 ring-offset-background transition-[top,left,width,height] duration-150"
      style={{
        top: rect.top - pad,
        left: rect.left - pad,
        width: rect.width + pad * 2,
        height: rect.height + pad * 2,
      }}
      data-testid="tutorial-highlight"
    />
  );
}
