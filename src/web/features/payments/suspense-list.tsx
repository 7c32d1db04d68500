import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Inbox, Link2, Search, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { type Payment, paymentEndpoints } from '@/contracts/payments';
import { can } from '@/contracts/roles';
import { Pagination } from '@/web/components/data-list/pagination';
import { EmptyMessage } from '@/web/components/empty-message';
import { Button } from '@/web/components/ui/button';
import { Card } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Skeleton } from '@/web/components/ui/skeleton';
import {
  ON_WIDE,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { useAuth } from '@/web/hooks/use-auth';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { useDebounced } from './contract-picker';
import { METHOD_LABELS, providerName } from './format';
import { MatchDialog, RefundDialog } from './suspense-dialogs';

const PAGE_SIZE = 25;

const providerLabel = (p: Payment) => (p.provider ? providerName(p.provider) : METHOD_LABELS[p.method]);

/**
 * The suspense queue: money received (mostly M-Pesa) whose account reference named no live
 * contract. Finance users match each payment to its contract, which posts it there, or refund it.
 */
export function SuspenseList() {
  const { user } = useAuth();
  const id = useId();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ action: 'match' | 'refund'; payment: Payment } | null>(null);
  const query = {
    status: 'suspense' as const,
    ...(q ? { q } : {}),
    sort: 'receivedAt' as const,
    order: 'asc' as const,
    page,
    pageSize: PAGE_SIZE,
  };
  const list = useQuery({
    queryKey: queryKeys.payments.suspense(query),
    queryFn: () => api(paymentEndpoints.list, { query }),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const manages = can(user, 'payments.manage');
  const items = list.data?.items ?? [];

  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-prose text-muted-foreground text-sm">
          Money received whose account reference matched no contract. It counts for no customer until it is
          matched to a contract (which posts it there) or refunded to the payer. Oldest first.
        </p>
        <div className="relative w-full sm:w-72">
          <label htmlFor={`${id}-q`} className="sr-only">
            Search receipt, reference or account reference
          </label>
          <Search
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-2.5 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={`${id}-q`}
            type="search"
            value={search}
            placeholder="Search reference or account"
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
            className="pl-8"
            data-testid="input-suspense-search"
          />
        </div>
      </div>
      {list.isLoading ? (
        <div role="status" className="grid grid-cols-1 gap-2">
          <span className="sr-only">Loading the suspense queue…</span>
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : list.error ? (
        <Card role="alert" className="p-4 text-destructive text-sm" data-testid="error-suspense">
          The suspense queue could not be loaded: {errorMessage(list.error)}
        </Card>
      ) : items.length === 0 ? (
        <Card>
          <EmptyMessage icon={Inbox} testId="empty-suspense">
            {q ? 'No payment in suspense matches this search.' : 'No payments waiting in suspense.'}
          </EmptyMessage>
        </Card>
      ) : (
        <Card className="overflow-x-auto p-0">
          <Table aria-label="Payments in suspense" data-testid="table-suspense">
            <TableHeader>
              <TableRow>
                <TableHead>Received</TableHead>
                <TableHead className={ON_WIDE}>Amount</TableHead>
                <TableHead className={ON_WIDE}>Account reference</TableHead>
                <TableHead className={ON_WIDE}>Receipt</TableHead>
                <TableHead className={ON_WIDE}>Provider</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className={list.isFetching ? 'opacity-60' : undefined}>
              {items.map((p) => (
                <TableRow key={p.id} data-testid={`row-suspense-${p.id}`}>
                  <TableCell className="whitespace-nowrap">
                    {formatDateTime(p.receivedAt)}
                    <span className="block font-medium tabular-nums sm:hidden">
                      {money(p.amount, p.currency)}
                    </span>
                    <span className="block text-muted-foreground text-xs sm:hidden">
                      {providerLabel(p)} ·{' '}
                      <span className="font-mono">{p.accountReference || 'no account'}</span>
                    </span>
                  </TableCell>
                  <TableCell className={`whitespace-nowrap font-medium tabular-nums ${ON_WIDE}`}>
                    {money(p.amount, p.currency)}
                  </TableCell>
                  <TableCell
                    className={`font-mono text-xs ${ON_WIDE}`}
                    data-testid={`text-suspense-account-${p.id}`}
                  >
                    {p.accountReference || <span className="text-muted-foreground">none given</span>}
                  </TableCell>
                  <TableCell className={ON_WIDE}>
                    <span className="font-mono text-xs">{p.reference ?? '—'}</span>
                    <span className="block text-muted-foreground text-xs">{p.receiptNumber}</span>
                  </TableCell>
                  <TableCell className={ON_WIDE}>{providerLabel(p)}</TableCell>
                  <TableCell className="text-right">
                    {manages && (
                      <div className="flex flex-col items-end gap-2 sm:flex-row sm:justify-end">
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => setActing({ action: 'refund', payment: p })}
                          data-testid={`button-refund-${p.id}`}
                        >
                          <Undo2 aria-hidden="true" />
                          Refund
                        </Button>
                        <Button
                          size="sm"
                          onClick={() => setActing({ action: 'match', payment: p })}
                          data-testid={`button-match-${p.id}`}
                        >
                          <Link2 aria-hidden="true" />
                          Match to contract
                        </Button>
                      </div>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {list.data && list.data.total > PAGE_SIZE && (
        <Pagination
          page={page}
          pageSize={PAGE_SIZE}
          total={list.data.total}
          onPage={setPage}
          testId="suspense"
        />
      )}
      {acting?.action === 'match' && <MatchDialog payment={acting.payment} onClose={() => setActing(null)} />}
      {acting?.action === 'refund' && (
        <RefundDialog payment={acting.payment} onClose={() => setActing(null)} />
      )}
    </div>
  );
}
