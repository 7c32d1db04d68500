import { useQuery } from '@tanstack/react-query';
import { CalendarDays } from 'lucide-react';
import { businessDateEndpoints } from '@/contracts/business-date';
import { apiOrNull } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { cn } from '@/web/lib/utils';

/**
 * The business date in the top bar, discreetly: the day due dates and arrears go by. On a server
 * where it can be moved (test and training), it is marked so that nobody takes it for the calendar.
 */
export function BusinessDateBadge() {
  const state = useQuery({
    queryKey: queryKeys.settings.businessDate(),
    queryFn: () => apiOrNull(businessDateEndpoints.get),
    // The date turns at midnight in the organisation's time zone.
    refetchInterval: 10 * 60_000,
  });
  if (!state.data) return null;
  const { businessDate, control } = state.data;
  return (
    <span
      className={cn(
        'hidden items-center gap-1.5 rounded-md px-2 py-1 text-muted-foreground text-xs tabular-nums lg:flex',
        control && 'bg-amber-500/10 text-amber-800 dark:text-amber-300',
      )}
      title={
        control
          ? 'Business date (test server: it can be moved forward in Settings)'
          : 'Business date: the day due dates and arrears go by'
      }
      data-testid="text-header-business-date"
    >
      <CalendarDays className="size-3.5" aria-hidden="true" />
      <span className="sr-only">Business date</span>
      {formatBusinessDate(businessDate)}
    </span>
  );
}
