import { type ComponentProps, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Skeleton } from '@/web/components/ui/skeleton';

const BalanceChart = lazy(() => import('./balance-chart'));

/**
 * The balance chart, fetched only when it scrolls near the viewport: its code is never part of the
 * calculator's first load.
 */
export function LazyBalanceChart(props: ComponentProps<typeof BalanceChart>) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(() => typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    const element = ref.current;
    if (visible || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin: '120px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);

  const placeholder = (
    <div role="status">
      <Skeleton className="h-[268px] w-full" />
      <span className="sr-only">Loading the balance chart…</span>
    </div>
  );
  return (
    <div ref={ref} className="min-h-[268px]">
      {visible ? <Suspense fallback={placeholder}>{<BalanceChart {...props} />}</Suspense> : placeholder}
    </div>
  );
}
