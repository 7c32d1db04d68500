import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ledgerEndpoints } from '@/contracts/ledger';
import { formatMoney } from '@/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Skeleton } from '@/web/components/ui/skeleton';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import { KEY_BALANCE_ACCOUNTS, keyBalances } from './ledger-format';

/**
 * Cash, bank and mobile money held, loans receivable, customer credit and suspense as of a date
 * (the business date unless one is chosen): read from the trial balance at that date.
 */
export function BalanceCards() {
  const [asOf, setAsOf] = useState('');
  const id = useId();
  const query = useQuery({
    queryKey: queryKeys.ledger.trialBalance(asOf),
    queryFn: () => api(ledgerEndpoints.trialBalance, { query: { asOf } }),
    staleTime: 10_000,
  });
  return (
    <section aria-labelledby={`${id}-title`} className="grid grid-cols-1 gap-3" data-testid="panel-balances">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="font-semibold">
            Balances
          </h2>
          <p className="text-muted-foreground text-sm" data-testid="text-balances-as-of">
            {query.data
              ? `As of ${formatBusinessDate(query.data.asOf)}, every posting up to that date.`
              : ' '}
          </p>
        </div>
        <div className="grid grid-cols-1 gap-1">
          <Label htmlFor={`${id}-as-of`} className="text-xs">
            As of
          </Label>
          <Input
            id={`${id}-as-of`}
            type="date"
            className="w-40 dark:[color-scheme:dark]"
            value={asOf}
            onChange={(event) => setAsOf(event.target.value)}
            data-testid="input-balances-as-of"
          />
        </div>
      </div>
      {query.isError ? (
        <p role="alert" className="text-destructive text-sm" data-testid="error-balances">
          The balances could not be loaded: {errorMessage(query.error)}
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 md:grid-cols-3 2xl:grid-cols-6">
          {query.data
            ? keyBalances(query.data.rows).map((balance) => (
                <Card key={balance.code} data-testid={`card-balance-${balance.code}`}>
                  <CardHeader className="gap-1 p-4">
                    <CardDescription>
                      {balance.label} <span className="font-mono text-xs">{balance.code}</span>
                    </CardDescription>
                    <CardTitle
                      className={cn(
                        'break-words text-lg tabular-nums',
                        balance.contrary && 'text-destructive',
                      )}
                      data-testid={`text-balance-card-${balance.code}`}
                    >
                      {formatMoney(balance.amount, query.data.currency)}
                    </CardTitle>
                  </CardHeader>
                </Card>
              ))
            : KEY_BALANCE_ACCOUNTS.map((account) => (
                <Card key={account.code}>
                  <CardContent className="p-4">
                    <Skeleton className="h-12 w-full" />
                  </CardContent>
                </Card>
              ))}
        </div>
      )}
    </section>
  );
}
