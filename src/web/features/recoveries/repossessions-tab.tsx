import { Ban, Check, PackageCheck, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import {
  DEVICE_CONDITION_LABELS,
  REPOSSESSION_STATUSES,
  type Repossession,
  recoveryEndpoints,
} from '@/contracts/recoveries';
import { can } from '@/contracts/roles';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card } from '@/web/components/ui/card';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { CancelRepossessionDialog, RecoverDialog, RecoveryDecisionDialog } from './dialogs';
import { BALANCE_LABELS, REPOSSESSION_STATUS_LABELS, REPOSSESSION_STATUS_VARIANTS } from './format';
import { RequestList } from './request-list';

type Open = { action: 'approve' | 'reject' | 'recover' | 'cancel'; repossession: Repossession } | null;

/**
 * The Repossessions tab of /collections: requests waiting for a second person, approved ones
 * waiting for the device, and (by state) the decided ones. Managers approve, reject and record
 * recoveries (never of their own request); collectors cancel one not yet recovered.
 */
export function RepossessionsTab() {
  const { user } = useAuth();
  const [open, setOpen] = useState<Open>(null);
  const decides = can(user, 'recoveries.approve');
  const works = can(user, 'collections.work');
  const done = (r: Repossession) => {
    setOpen(null);
    toast({
      title: `Repossession of ${r.contractNumber}'s device ${REPOSSESSION_STATUS_LABELS[r.status].toLowerCase()}`,
    });
  };
  return (
    <>
      <RequestList
        name="Repossessions"
        intro="A repossession is asked for with a reason, approved or rejected by a second person, then recorded when the device is back: it returns to stock as returned and the contract closes."
        states={REPOSSESSION_STATUSES}
        labels={REPOSSESSION_STATUS_LABELS}
        initialState=""
        queryKey={queryKeys.recoveries.repossessions()}
        load={(query) => api(recoveryEndpoints.repossessions, { query })}
        row={(r) => (
          <RepossessionRow
            repossession={r}
            mine={r.requestedBy?.id === user?.id}
            decides={decides}
            works={works}
            onOpen={(action) => setOpen({ action, repossession: r })}
          />
        )}
      />
      {(open?.action === 'approve' || open?.action === 'reject') && (
        <RecoveryDecisionDialog
          decision={open.action}
          request={{ kind: 'repossession', item: open.repossession }}
          maker={open.repossession.requestedBy?.id === user?.id}
          onClose={() => setOpen(null)}
          onDone={(r) => done(r as Repossession)}
        />
      )}
      {open?.action === 'recover' && (
        <RecoverDialog repossession={open.repossession} onClose={() => setOpen(null)} onDone={done} />
      )}
      {open?.action === 'cancel' && (
        <CancelRepossessionDialog
          repossession={open.repossession}
          onClose={() => setOpen(null)}
          onDone={done}
        />
      )}
    </>
  );
}

function RepossessionRow({
  repossession: r,
  mine,
  decides,
  works,
  onOpen,
}: {
  repossession: Repossession;
  mine: boolean;
  decides: boolean;
  works: boolean;
  onOpen: (action: 'approve' | 'reject' | 'recover' | 'cancel') => void;
}) {
  const m = (minor: number) => money(minor, r.currency);
  const openState = r.status === 'requested' || r.status === 'approved';
  return (
    <Card
      className="flex flex-col gap-3 p-4 text-sm sm:flex-row sm:items-start sm:justify-between"
      data-testid={`row-repossession-${r.id}`}
    >
      <div className="grid min-w-0 grid-cols-1 gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <Link
            href={`/contracts/${r.contractId}`}
            className="font-semibold text-primary hover:underline"
            data-testid={`link-repossession-contract-${r.id}`}
          >
            {r.contractNumber}
          </Link>
          <span>{r.customerName}</span>
          <span className="text-muted-foreground">device {r.deviceSerial}</span>
          <Badge
            variant={REPOSSESSION_STATUS_VARIANTS[r.status]}
            data-testid={`badge-repossession-${r.id}`}
            data-status={r.status}
          >
            {REPOSSESSION_STATUS_LABELS[r.status]}
          </Badge>
        </p>
        <p>
          “{r.reason}” · <span className="tabular-nums">{m(r.outstandingAtRequest.total)}</span> outstanding
          when asked
        </p>
        {r.status === 'recovered' && (
          <p data-testid={`text-recovered-${r.id}`}>
            Back {r.condition ? DEVICE_CONDITION_LABELS[r.condition].toLowerCase() : ''}
            {r.conditionNotes ? ` (${r.conditionNotes})` : ''}, valued {m(r.recoveryValue ?? 0)};{' '}
            {r.balanceTreatment === 'write_off'
              ? `${m(r.writtenOff?.total ?? 0)} written off`
              : r.balanceTreatment
                ? BALANCE_LABELS[r.balanceTreatment].toLowerCase()
                : ''}
          </p>
        )}
        <p className="text-muted-foreground text-xs">
          Asked by {r.requestedBy?.name ?? 'someone'} · {formatDateTime(r.requestedAt)}
          {r.decidedAt
            ? ` · ${r.status === 'cancelled' ? 'cancelled' : 'decided'} by ${r.decidedBy?.name ?? 'someone'} ${formatDateTime(r.decidedAt)}`
            : ''}
          {r.decisionNote ? ` · “${r.decisionNote}”` : ''}
          {r.recoveredAt
            ? ` · recovered by ${r.recoveredBy?.name ?? 'someone'} ${formatDateTime(r.recoveredAt)}`
            : ''}
        </p>
        {mine && r.status === 'requested' && (
          <p className="font-medium text-xs" data-testid={`text-maker-${r.id}`}>
            You asked for this: a second person must approve or reject it.
          </p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {decides && r.status === 'requested' && !mine && (
          <>
            <Button
              size="sm"
              variant="outline"
              onClick={() => onOpen('reject')}
              data-testid={`button-reject-${r.id}`}
            >
              <X aria-hidden="true" />
              Reject
            </Button>
            <Button size="sm" onClick={() => onOpen('approve')} data-testid={`button-approve-${r.id}`}>
              <Check aria-hidden="true" />
              Approve
            </Button>
          </>
        )}
        {decides && r.status === 'approved' && (
          <Button size="sm" onClick={() => onOpen('recover')} data-testid={`button-recover-${r.id}`}>
            <PackageCheck aria-hidden="true" />
            Record recovery
          </Button>
        )}
        {works && openState && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onOpen('cancel')}
            data-testid={`button-cancel-${r.id}`}
          >
            <Ban aria-hidden="true" />
            Cancel
          </Button>
        )}
      </div>
    </Card>
  );
}
