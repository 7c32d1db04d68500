import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Check, CircleDashed, Clock, FilePlus2, ShieldCheck, X } from 'lucide-react';
import { Link } from 'wouter';
import { contractEndpoints } from '@/contracts/contracts';
import { type Customer, KYC_DOCUMENT_LABELS, type KycDocument } from '@/contracts/customers';
import { can, type RoleHolder } from '@/contracts/roles';
import { formatMoney } from '@/domain';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { CustomerCredit } from '@/web/features/payments/contract-payments';
import { api, endpointUrl } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { KycBadge } from './badges';
import type { BadgeVariant } from './format';
import { useDocuments } from './queries';

/** Where KYC stands: the status, each required document, and the reason of a rejection. */
export function KycCard({ customer }: { customer: Customer }) {
  const documents = useDocuments(customer.id);
  const latest = (documents.data ?? []).filter((doc) => doc.latest);
  const { kyc } = customer;
  const stateOf = (type: KycDocument['type']) => latest.find((doc) => doc.type === type)?.status ?? 'missing';
  const ICONS = { verified: Check, pending: Clock, rejected: X, missing: CircleDashed } as const;
  const WORDS = {
    verified: 'verified',
    pending: 'awaiting review',
    rejected: 'rejected',
    missing: 'not uploaded',
  };
  return (
    <Card data-testid="card-kyc">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-4 text-muted-foreground" aria-hidden="true" />
          KYC
        </CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3">
        <div>
          <KycBadge status={kyc.status} testId="text-kyc-status" />
        </div>
        {kyc.status === 'rejected' && kyc.rejectionReason && (
          <p className="text-destructive text-sm" data-testid="text-kyc-rejection">
            {kyc.rejectionReason}
          </p>
        )}
        <ul className="grid grid-cols-1 gap-1.5 text-sm" aria-label="Required documents">
          {kyc.requiredDocuments.map((type) => {
            const state = documents.isLoading ? 'missing' : stateOf(type);
            const Icon = ICONS[state];
            return (
              <li
                key={type}
                className="flex items-center gap-2"
                data-testid={`text-required-${type}`}
                data-state={state}
              >
                <Icon
                  className={
                    state === 'verified'
                      ? 'size-4 text-success'
                      : state === 'rejected'
                        ? 'size-4 text-destructive'
                        : 'size-4 text-muted-foreground'
                  }
                  aria-hidden="true"
                />
                {KYC_DOCUMENT_LABELS[type]}: <span className="text-muted-foreground">{WORDS[state]}</span>
              </li>
            );
          })}
        </ul>
        {kyc.reviewedBy && kyc.reviewedAt && (
          <p className="text-muted-foreground text-xs">
            Last decision by {kyc.reviewedBy.name}, {formatDateTime(kyc.reviewedAt)}.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

const CONTRACT_VARIANTS: Record<string, BadgeVariant> = {
  draft: 'secondary',
  pending_approval: 'warning',
  active: 'default',
  paid_off: 'success',
  defaulted: 'destructive',
  written_off: 'destructive',
  returned: 'outline',
  repossessed: 'destructive',
  cancelled: 'outline',
};
const contractStatus = (status: string) => {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
const SHOWN = 5;

/** The customer's contracts, newest first, with a link to all of them and to start a new one. */
export function ContractsCard({ customer, user }: { customer: Customer; user: RoleHolder | null }) {
  const query = { customerId: customer.id, sort: 'createdAt', order: 'desc', pageSize: SHOWN } as const;
  const contracts = useQuery({
    queryKey: [...queryKeys.contracts.lists(), endpointUrl(contractEndpoints.list, { query })],
    queryFn: () => api(contractEndpoints.list, { query }),
    staleTime: 10_000,
  });
  const all = `/contracts?customerId=${customer.id}`;
  const rows = contracts.data?.items ?? [];
  return (
    <Card data-testid="card-contracts">
      <CardHeader>
        <CardTitle>Contracts</CardTitle>
        <CardDescription>
          {customer.kyc.status === 'verified'
            ? 'KYC is verified: a contract can be activated.'
            : 'A contract can be drafted now; it is activated only once KYC is verified.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3">
        {contracts.isLoading ? (
          <div role="status" className="grid grid-cols-1 gap-2">
            <span className="sr-only">Loading contracts…</span>
            <Skeleton className="h-10 w-full" />
          </div>
        ) : contracts.error ? (
          <p className="text-muted-foreground text-sm">
            Contracts could not be loaded here ({errorMessage(contracts.error)}).
          </p>
        ) : rows.length === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="empty-customer-contracts">
            No contracts yet.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-2" data-testid="list-customer-contracts">
            {rows.map((contract) => (
              <li key={contract.id}>
                <Link
                  href={`/contracts/${contract.id}`}
                  className="flex items-center justify-between gap-3 rounded-md border p-2.5 text-sm hover:bg-accent"
                  data-testid={`link-contract-${contract.id}`}
                >
                  <span className="min-w-0">
                    <span className="block font-medium">{contract.number}</span>
                    <span className="block truncate text-muted-foreground text-xs">
                      {contract.deviceModel} · {formatMoney(contract.outstandingTotal, contract.currency)}{' '}
                      outstanding
                    </span>
                  </span>
                  <Badge variant={CONTRACT_VARIANTS[contract.status] ?? 'outline'}>
                    {contractStatus(contract.status)}
                  </Badge>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {rows.length > 0 && <CustomerCredit customerId={customer.id} currency={customer.currency} />}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" asChild>
            <Link href={all} data-testid="link-customer-contracts">
              {contracts.data && contracts.data.total > SHOWN
                ? `All ${contracts.data.total} contracts`
                : 'Open in Contracts'}
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          {can(user, 'contracts.draft') && (
            <Button size="sm" asChild>
              <Link href={`/contracts/new?customerId=${customer.id}`} data-testid="link-new-contract">
                <FilePlus2 aria-hidden="true" />
                New contract
              </Link>
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
