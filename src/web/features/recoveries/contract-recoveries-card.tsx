import { useQuery } from '@tanstack/react-query';
import { PackageX, Scissors } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { User } from '@/contracts/auth';
import type { Contract } from '@/contracts/contracts';
import { recoveryEndpoints } from '@/contracts/recoveries';
import { can } from '@/contracts/roles';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { RecoveryRequestDialog } from './dialogs';
import {
  REPOSSESSION_STATUS_LABELS,
  REPOSSESSION_STATUS_VARIANTS,
  WRITE_OFF_STATUS_LABELS,
  WRITE_OFF_STATUS_VARIANTS,
} from './format';

const LIVE = new Set(['active', 'defaulted']);
const SHOWN = new Set(['active', 'defaulted', 'repossessed', 'written_off']);

/**
 * The contract page's recoveries card: the latest repossession and write-off request with their
 * state, and, for a collector on a contract that can take one, "Request repossession" and
 * "Request write-off" (a second person decides them on /collections).
 */
export function ContractRecoveriesCard({ contract: c, user }: { contract: Contract; user: User }) {
  const [asking, setAsking] = useState<'repossession' | 'write-off' | null>(null);
  const shown = SHOWN.has(c.status);
  const state = useQuery({
    queryKey: queryKeys.recoveries.contract(c.id),
    queryFn: () => api(recoveryEndpoints.contractRecoveries, { params: { id: c.id } }),
    enabled: shown,
    staleTime: 5_000,
  });
  if (!shown) return null;
  const m = (minor: number) => money(minor, c.currency);
  const r = state.data?.repossession ?? null;
  const w = state.data?.writeOff ?? null;
  const repossessionOpen = r?.status === 'requested' || r?.status === 'approved';
  const writeOffOpen = w?.status === 'pending';
  const works = can(user, 'collections.work');
  const canRepossess = works && LIVE.has(c.status) && !repossessionOpen && !writeOffOpen;
  const canWriteOff =
    works && (LIVE.has(c.status) || c.status === 'repossessed') && !repossessionOpen && !writeOffOpen;
  return (
    <Card data-testid="card-contract-recoveries">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Repossession and write-off</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3 text-sm">
        {state.isLoading ? (
          <Skeleton className="h-12 w-full" />
        ) : state.error ? (
          <p role="alert" className="text-destructive">
            Could not be loaded: {errorMessage(state.error)}
          </p>
        ) : (
          <>
            {r ? (
              <div className="grid grid-cols-1 gap-0.5" data-testid="text-contract-repossession">
                <p className="flex flex-wrap items-center gap-2">
                  Repossession
                  <Badge
                    variant={REPOSSESSION_STATUS_VARIANTS[r.status]}
                    data-testid="badge-contract-repossession"
                    data-status={r.status}
                  >
                    {REPOSSESSION_STATUS_LABELS[r.status]}
                  </Badge>
                </p>
                <p className="text-muted-foreground text-xs">
                  “{r.reason}” · asked by {r.requestedBy?.name ?? 'someone'} {formatDateTime(r.requestedAt)}
                </p>
              </div>
            ) : null}
            {w ? (
              <div className="grid grid-cols-1 gap-0.5" data-testid="text-contract-write-off">
                <p className="flex flex-wrap items-center gap-2">
                  Write-off of {m(w.writtenOff?.total ?? w.outstanding.total)}
                  <Badge
                    variant={WRITE_OFF_STATUS_VARIANTS[w.status]}
                    data-testid="badge-contract-write-off"
                    data-status={w.status}
                  >
                    {WRITE_OFF_STATUS_LABELS[w.status]}
                  </Badge>
                </p>
                <p className="text-muted-foreground text-xs">
                  “{w.reason}” · asked by {w.requestedBy?.name ?? 'someone'} {formatDateTime(w.requestedAt)}
                </p>
              </div>
            ) : null}
            {!r && !w && <p className="text-muted-foreground">No repossession or write-off asked for.</p>}
            {(r || w) && (
              <Link
                href={`/collections?tab=${r && (!w || r.requestedAt > w.requestedAt) ? 'repossessions' : 'write-offs'}`}
                className="text-primary text-xs hover:underline"
                data-testid="link-recoveries-queue"
              >
                Open the queue on Collections
              </Link>
            )}
            {(canRepossess || canWriteOff) && state.data && (
              <div className="flex flex-wrap gap-2">
                {canRepossess && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setAsking('repossession')}
                    data-testid="button-request-repossession"
                  >
                    <PackageX aria-hidden="true" />
                    Request repossession
                  </Button>
                )}
                {canWriteOff && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setAsking('write-off')}
                    data-testid="button-request-write-off"
                  >
                    <Scissors aria-hidden="true" />
                    Request write-off
                  </Button>
                )}
              </div>
            )}
          </>
        )}
      </CardContent>
      {asking && state.data && (
        <RecoveryRequestDialog
          kind={asking}
          contract={c}
          outstanding={state.data.outstanding}
          onClose={() => setAsking(null)}
          onDone={() => {
            setAsking(null);
            toast({
              title: asking === 'repossession' ? 'Repossession requested' : 'Write-off requested',
              description: 'A second person decides it on Collections.',
            });
          }}
        />
      )}
    </Card>
  );
}
