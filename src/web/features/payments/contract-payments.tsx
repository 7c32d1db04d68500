import { useQuery } from '@tanstack/react-query';
import { CircleDollarSign, FileDown } from 'lucide-react';
import { Link } from 'wouter';
import type { Contract } from '@/contracts/contracts';
import { contractEndpoints } from '@/contracts/contracts';
import { paymentEndpoints } from '@/contracts/payments';
import { can, type RoleHolder } from '@/contracts/roles';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { api, endpointUrl } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { METHOD_LABELS, receiptHref, STATUS_LABELS } from './format';

const SHOWN = 10;

/** Contracts that take repayments (an active or defaulted schedule). */
export const takesPayments = (contract: Pick<Contract, 'status'>): boolean =>
  contract.status === 'active' || contract.status === 'defaulted';

/** The contract page's "Record payment": the post form, already on this contract. */
export function RecordPaymentButton({ contract, user }: { contract: Contract; user: RoleHolder | null }) {
  if (!takesPayments(contract) || !can(user, 'payments.cash')) return null;
  return (
    <Button asChild size="sm">
      <Link href={`/payment-processing?contract=${contract.id}`} data-testid="link-record-payment">
        <CircleDollarSign aria-hidden="true" />
        Record payment
      </Link>
    </Button>
  );
}

/** The customer statement PDF of a contract (schedule, payments, allocation, balance, credit). */
export function StatementLink({ contract }: { contract: Pick<Contract, 'id'> }) {
  return (
    <a
      href={endpointUrl(paymentEndpoints.statementPdf, { params: { id: contract.id } })}
      target="_blank"
      rel="noopener"
      className="inline-flex items-center gap-2 font-medium text-primary hover:underline"
      data-testid="link-statement"
    >
      <FileDown className="size-4" aria-hidden="true" />
      Customer statement (PDF)
    </a>
  );
}

/** The contract's payments, newest first, each opening its receipt. */
export function ContractPaymentsCard({ contract }: { contract: Contract }) {
  const query = { contractId: contract.id, pageSize: SHOWN, sort: 'receivedAt', order: 'desc' } as const;
  const list = useQuery({
    queryKey: [paymentEndpoints.list.path, 'list', query],
    queryFn: () => api(paymentEndpoints.list, { query }),
    staleTime: 5_000,
  });
  const rows = list.data?.items ?? [];
  return (
    <Card data-testid="card-contract-payments">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Payments</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-2 text-sm">
        {list.isLoading ? (
          <div role="status">
            <span className="sr-only">Loading payments…</span>
            <Skeleton className="h-12 w-full" />
          </div>
        ) : list.error ? (
          <p className="text-destructive">Payments could not be loaded: {errorMessage(list.error)}</p>
        ) : rows.length === 0 ? (
          <p className="text-muted-foreground" data-testid="empty-contract-payments">
            No payments yet.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-1">
            {rows.map((p) => (
              <li key={p.id}>
                <Link
                  href={receiptHref(p)}
                  className="-mx-2 flex items-start justify-between gap-3 rounded-md px-2 py-1.5 hover:bg-accent"
                  data-testid={`row-payment-${p.id}`}
                >
                  <span className="min-w-0">
                    <span className="block font-medium">
                      {p.receiptNumber}{' '}
                      <span className="font-normal text-muted-foreground">
                        {METHOD_LABELS[p.method].toLowerCase()}
                      </span>
                    </span>
                    <span className="block truncate text-muted-foreground text-xs">
                      {formatDateTime(p.receivedAt)}
                      {p.reference ? ` · ref ${p.reference}` : ''}
                      {p.status !== 'posted' ? ` · ${STATUS_LABELS[p.status].toLowerCase()}` : ''}
                    </span>
                  </span>
                  <span
                    className={`whitespace-nowrap font-medium tabular-nums ${p.status === 'reversed' ? 'line-through' : ''}`}
                  >
                    {money(p.amount, p.currency)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {list.data && list.data.total > SHOWN && (
          <Link
            href={`/payment-processing?tab=payments&contractId=${contract.id}`}
            className="text-primary text-xs hover:underline"
          >
            All {list.data.total} payments
          </Link>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * What a customer holds as credit: the sum of their contracts' credit balances (the contracts list
 * carries each contract's), shown on the customer page when there is any.
 */
export function CustomerCredit({ customerId, currency }: { customerId: string; currency: string }) {
  const query = { customerId, pageSize: 200 } as const;
  const contracts = useQuery({
    queryKey: [...queryKeys.contracts.lists(), 'credit', query],
    queryFn: () => api(contractEndpoints.list, { query }),
    staleTime: 10_000,
  });
  const credit = (contracts.data?.items ?? []).reduce((sum, c) => sum + c.creditBalance, 0);
  if (!contracts.data) return null;
  return (
    <p className="text-sm" data-testid="text-customer-credit">
      <span className="text-muted-foreground">Customer credit: </span>
      <span className="font-semibold tabular-nums">
        {money(credit, contracts.data.items[0]?.currency ?? currency)}
      </span>
      {credit > 0 && <span className="text-muted-foreground"> (used for later instalments or refunded)</span>}
    </p>
  );
}
