import { LoaderCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '@/web/lib/utils';

/** Seed section 9: inside the signed-in area a page spinner appears only after 200 ms. */
export const SPINNER_DELAY_MS = 200;

export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle className={cn('size-5 animate-spin', className)} aria-hidden="true" />;
}

/** Full-screen indicator used while the session is checked and while a top-level page loads. */
export function FullScreenLoader({ label }: { label: string }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 bg-background p-6">
      <div
        role="status"
        aria-live="polite"
        className="flex flex-col items-center gap-3"
        data-testid="loader-fullscreen"
      >
        <Spinner className="size-8 text-primary" />
        <p className="text-muted-foreground text-sm">{label}</p>
      </div>
    </main>
  );
}

/** Renders nothing for the first `delayMs`, then a spinner: fast page loads never flash it. */
export function DelayedSpinner({ delayMs = SPINNER_DELAY_MS }: { delayMs?: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  if (!visible) return null;
  return (
    <div role="status" className="flex min-h-64 items-center justify-center gap-3" data-testid="spinner-page">
      <Spinner className="size-6 text-primary" />
      <span className="text-muted-foreground text-sm">Loading…</span>
    </div>
  );
}
