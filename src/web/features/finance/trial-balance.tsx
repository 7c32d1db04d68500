import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { ledgerEndpoints, type TrialBalance } from '@/contracts/ledger';
import { formatMoney } from '@/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import {
  ON_WIDE,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import { ACCOUNT_TYPE_LABELS, amountOrBlank, balanceWithSide } from './ledger-format';

/** The trial balance as of a date: each account's debits, credits and balance, and the totals. */
export function TrialBalanceView() {
  const [asOf, setAsOf] = useState('');
  const [showEmpty, setShowEmpty] = useState(false);
  const ids = useId();
  const query = useQuery({
    queryKey: queryKeys.ledger.trialBalance(asOf),
    queryFn: () => api(ledgerEndpoints.trialBalance, { query: { asOf } }),
    staleTime: 10_000,
  });

  return (
    <Card data-testid="panel-trial-balance">
      <CardHeader className="gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid grid-cols-1 gap-1.5">
          <CardTitle>Trial balance</CardTitle>
          <CardDescription>
            {query.data ? `As of ${formatBusinessDate(query.data.asOf)}. ` : ''}Every posting up to the date;
            total debits always equal total credits.
          </CardDescription>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid grid-cols-1 gap-1">
            <Label htmlFor={`${ids}-as-of`} className="text-xs">
              As of
            </Label>
            <Input
              id={`${ids}-as-of`}
              type="date"
              className="w-40 dark:[color-scheme:dark]"
              value={asOf}
              onChange={(event) => setAsOf(event.target.value)}
              data-testid="input-trial-balance-as-of"
            />
          </div>
          <label className="flex h-9 items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={showEmpty}
              onChange={(event) => setShowEmpty(event.target.checked)}
              className="size-4 accent-primary"
              data-testid="checkbox-show-empty-accounts"
            />
            Show accounts without postings
          </label>
        </div>
      </CardHeader>
      <CardContent className="p-0 pb-2">
        {query.isLoading ? (
          <TableSkeleton label="Loading the trial balance…" rows={6} />
        ) : query.error || !query.data ? (
          <p role="alert" className="px-6 pb-4 text-destructive text-sm" data-testid="error-trial-balance">
            The trial balance could not be loaded: {errorMessage(query.error)}
          </p>
        ) : (
          <TrialBalanceTable data={query.data} showEmpty={showEmpty} />
        )}
      </CardContent>
    </Card>
  );
}

export function TrialBalanceTable({ data, showEmpty }: { data: TrialBalance; showEmpty: boolean }) {
  const m = (minor: number) => formatMoney(minor, data.currency);
  const rows = showEmpty ? data.rows : data.rows.filter((row) => row.debit !== 0 || row.credit !== 0);
  const difference = data.totals.debit - data.totals.credit;
  return (
    <div className="grid grid-cols-1 gap-3">
      <Table aria-label={`Trial balance as of ${data.asOf}`} data-testid="table-trial-balance">
        <TableHeader>
          <TableRow>
            <TableHead className="pl-6">Account</TableHead>
            <TableHead className={ON_WIDE}>Type</TableHead>
            <TableHead className={`text-right ${ON_WIDE}`}>Debit</TableHead>
            <TableHead className={`text-right ${ON_WIDE}`}>Credit</TableHead>
            <TableHead className="pr-6 text-right">Balance</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="tabular-nums">
          {rows.length === 0 ? (
            <TableRow>
              <TableCell
                colSpan={5}
                className="py-8 text-center text-muted-foreground"
                data-testid="text-trial-balance-empty"
              >
                Nothing has been posted up to this date.
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => (
              <TableRow key={row.code} data-testid={`row-account-${row.code}`}>
                <TableCell className="whitespace-normal pl-6">
                  <span className="font-mono text-muted-foreground text-xs">{row.code}</span>{' '}
                  <span>{row.name}</span>
                </TableCell>
                <TableCell className={`text-muted-foreground ${ON_WIDE}`}>
                  {ACCOUNT_TYPE_LABELS[row.type]}
                </TableCell>
                <TableCell className={`text-right ${ON_WIDE}`}>
                  {amountOrBlank(row.debit, data.currency)}
                </TableCell>
                <TableCell className={`text-right ${ON_WIDE}`}>
                  {amountOrBlank(row.credit, data.currency)}
                </TableCell>
                <TableCell
                  className="whitespace-nowrap pr-6 text-right"
                  data-testid={`text-balance-${row.code}`}
                >
                  {balanceWithSide(row.balance, data.currency)}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
        <tfoot className="tabular-nums">
          <TableRow
            className="border-t-2 bg-muted/40 font-semibold hover:bg-muted/40"
            data-testid="row-trial-balance-totals"
          >
            <TableHead scope="row" className="pl-6 text-foreground">
              Total
            </TableHead>
            <TableCell className={ON_WIDE} />
            <TableCell className={`text-right ${ON_WIDE}`} data-testid="text-total-debit">
              {m(data.totals.debit)}
            </TableCell>
            <TableCell className={`text-right ${ON_WIDE}`} data-testid="text-total-credit">
              {m(data.totals.credit)}
            </TableCell>
            <TableCell className="whitespace-nowrap pr-6 text-right">
              <span className="hidden sm:inline">{balanceWithSide(difference, data.currency)}</span>
              <span className="grid grid-cols-1 sm:hidden">
                <span>Dr {m(data.totals.debit)}</span>
                <span>Cr {m(data.totals.credit)}</span>
              </span>
            </TableCell>
          </TableRow>
        </tfoot>
      </Table>
      <p
        className={cn(
          'mx-6 mb-2 flex items-center gap-2 text-sm',
          data.balanced ? 'text-foreground' : 'font-medium text-destructive',
        )}
        role="status"
        data-testid="text-trial-balance-status"
        data-balanced={data.balanced}
      >
        {data.balanced ? (
          <>
            <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
            Balanced: debits equal credits ({m(data.totals.debit)}).
          </>
        ) : (
          <>
            <TriangleAlert className="size-4" aria-hidden="true" />
            Out of balance by {m(Math.abs(difference))}: report this to the administrator.
          </>
        )}
      </p>
    </div>
  );
}
