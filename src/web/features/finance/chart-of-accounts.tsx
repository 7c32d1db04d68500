import { ACCOUNT_TYPES } from '@/contracts/ledger';
import { Badge } from '@/web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { errorMessage } from '@/web/lib/queryClient';
import { useAccounts } from './journal';
import { ACCOUNT_TYPE_LABELS } from './ledger-format';

/** The chart of accounts, grouped by type, with what each account holds. */
export function ChartOfAccounts() {
  const accounts = useAccounts();
  return (
    <Card data-testid="panel-accounts">
      <CardHeader>
        <CardTitle>Chart of accounts</CardTitle>
        <CardDescription>The accounts every posting uses, by type.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        {accounts.isLoading ? (
          <TableSkeleton label="Loading the chart of accounts…" rows={6} />
        ) : accounts.error ? (
          <p role="alert" className="text-destructive text-sm">
            The chart of accounts could not be loaded: {errorMessage(accounts.error)}
          </p>
        ) : (
          ACCOUNT_TYPES.map((type) => {
            const rows = (accounts.data ?? []).filter((account) => account.type === type);
            if (!rows.length) return null;
            return (
              <section key={type} aria-labelledby={`accounts-${type}`}>
                <h3 id={`accounts-${type}`} className="mb-2 font-medium text-muted-foreground text-sm">
                  {ACCOUNT_TYPE_LABELS[type]}
                </h3>
                <ul className="divide-y rounded-lg border">
                  {rows.map((account) => (
                    <li
                      key={account.code}
                      className="flex flex-wrap items-start gap-x-3 gap-y-1 px-4 py-2.5 text-sm"
                      data-testid={`row-ledger-account-${account.code}`}
                    >
                      <span className="w-12 shrink-0 font-mono text-muted-foreground">{account.code}</span>
                      <span className="min-w-0 flex-1">
                        <span className="font-medium">{account.name}</span>
                        {account.description && (
                          <span className="block text-muted-foreground text-xs">{account.description}</span>
                        )}
                      </span>
                      {!account.active && <Badge variant="outline">Inactive</Badge>}
                    </li>
                  ))}
                </ul>
              </section>
            );
          })
        )}
      </CardContent>
    </Card>
  );
}
