import { useQuery } from '@tanstack/react-query';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import {
  COLLECTION_ACTION_LABELS,
  CONTACT_OUTCOME_LABELS,
  collectionEndpoints,
} from '@/contracts/collections';
import type { Contract } from '@/contracts/contracts';
import { can } from '@/contracts/roles';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { useAuth } from '@/web/hooks/use-auth';
import { api } from '@/web/lib/api';
import { formatBusinessDate, formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { LogActionDialog } from './action-dialog';
import { PromiseBadge } from './promises-list';
import { useQueueOptions } from './queue-list';

const LIVE = new Set(['active', 'defaulted']);

/**
 * The contract page's "Collections" card: its case (score, collector), the promises to pay and
 * the actions logged, newest first, and "Log action" for collectors on a live contract.
 */
export function ContractCaseCard({
  contract,
}: {
  contract: Pick<Contract, 'id' | 'number' | 'status' | 'currency' | 'customer'>;
}) {
  const { user } = useAuth();
  const works = can(user, 'collections.work');
  const [logging, setLogging] = useState(false);
  const options = useQueueOptions(works);
  const query = useQuery({
    queryKey: queryKeys.collections.contractCase(contract.id),
    queryFn: () => api(collectionEndpoints.contractCase, { params: { id: contract.id } }),
  });
  const kase = query.data;
  const canLog = works && LIVE.has(contract.status) && !!options.data;
  return (
    <Card data-testid="card-contract-collections">
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>Collections</CardTitle>
          <CardDescription>
            {kase?.score !== null && kase?.score !== undefined
              ? `${kase.inQueue ? 'In the queue' : 'Out of the queue'}: score ${kase.score} (${kase.scoredOn}), ${
                  kase.collectorName ? `assigned to ${kase.collectorName}` : 'unassigned'
                }.`
              : 'Not in the collections queue.'}
          </CardDescription>
        </div>
        {canLog && (
          <Button size="sm" onClick={() => setLogging(true)} data-testid="button-contract-log-action">
            <MessageSquarePlus aria-hidden="true" />
            Log action
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        {query.isLoading ? (
          <div role="status">
            <span className="sr-only">Loading the collections case…</span>
            <Skeleton className="h-16 w-full" />
          </div>
        ) : query.error ? (
          <p role="alert" className="text-destructive text-sm">
            The collections case could not be loaded: {errorMessage(query.error)}
          </p>
        ) : kase ? (
          <>
            <section aria-label="Promises to pay" className="grid gap-2">
              <h3 className="font-medium text-sm">Promises to pay</h3>
              {kase.promises.length === 0 ? (
                <p className="text-muted-foreground text-sm">No promise taken.</p>
              ) : (
                <ul className="grid gap-1.5 text-sm" data-testid="list-contract-promises">
                  {kase.promises.map((p) => (
                    <li key={p.id} className="flex flex-wrap items-center gap-2">
                      <PromiseBadge promise={p} />
                      {money(p.amount, p.currency)} by {formatBusinessDate(p.promisedDate)}
                      {p.state !== 'pending' && (
                        <span className="text-muted-foreground text-xs">
                          ({money(p.amountPaid, p.currency)} paid)
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-label="Actions" className="grid gap-2">
              <h3 className="font-medium text-sm">Actions</h3>
              {kase.actions.length === 0 ? (
                <p className="text-muted-foreground text-sm">No action logged.</p>
              ) : (
                <ol className="grid gap-2 text-sm" data-testid="list-contract-actions">
                  {kase.actions.map((a) => (
                    <li key={a.id} className="border-l-2 pl-3">
                      <span className="font-medium">{COLLECTION_ACTION_LABELS[a.kind]}</span>
                      {a.outcome && <span>: {CONTACT_OUTCOME_LABELS[a.outcome].toLowerCase()}</span>}
                      {a.note && <span className="block text-muted-foreground">{a.note}</span>}
                      <span className="block text-muted-foreground text-xs">
                        {formatDateTime(a.at)}
                        {a.actorName ? ` · ${a.actorName}` : ''}
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          </>
        ) : null}
      </CardContent>
      {logging && options.data && (
        <LogActionDialog
          target={{
            contractId: contract.id,
            contractNumber: contract.number,
            customerName: contract.customer.name,
            currency: contract.currency,
            amountOverdue: 0,
          }}
          businessDate={options.data.businessDate}
          onClose={() => setLogging(false)}
        />
      )}
    </Card>
  );
}
