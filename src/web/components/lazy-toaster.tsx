import { lazy, Suspense, useState } from 'react';
import { useToast } from '@/web/hooks/use-toast';

const Toaster = lazy(() => import('./ui/toaster').then((module) => ({ default: module.Toaster })));

/**
 * The toast area, loaded with the first toast: Radix Toast and its layers (~10 KB gzipped) stay
 * out of the first load of every page (the customer portal's budget is 120 KB). Once loaded it
 * stays mounted, so F8 and the one-at-a-time rule work as before.
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
