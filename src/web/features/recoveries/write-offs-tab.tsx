import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { recoveryEndpoints, WRITE_OFF_STATUSES, type WriteOff } from '@/contracts/recoveries';
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
import { ComponentsTable, RecoveryDecisionDialog } from './dialogs';
import { WRITE_OFF_STATUS_LABELS, WRITE_OFF_STATUS_VARIANTS } from './format';
import { RequestList } from './request-list';

/**
 * The Write-offs tab of /collections: requests with their reason and the balance by component,
 * approved or rejected by a second person (maker-checker); an approved one shows what came off
 * the books.
 */
export function WriteOffsTab() {
  const { user } = useAuth();
  const [open, setOpen] = useState<{ decision: 'approve' | 'reject'; writeOff: WriteOff } | null>(null);
  const decides = can(user, 'recoveries.approve');
  return (
    <>
      <RequestList
        name="Write-offs"
        intro="A write-off takes a contract's balance off the books against credit losses, by component, once a second person approves it. The balance is recomputed at approval."
        states={WRITE_OFF_STATUSES}
        labels={WRITE_OFF_STATUS_LABELS}
        initialState=""
        queryKey={queryKeys.recoveries.writeOffs()}
        load={(query) => api(recoveryEndpoints.writeOffs, { query })}
        row={(w) => (
          <WriteOffRow
            writeOff={w}
            mine={w.requestedBy?.id === user?.id}
            decides={decides}
            onDecide={(decision) => setOpen({ decision, writeOff: w })}
          />
        )}
      />
      {open && (
        <RecoveryDecisionDialog
          decision={open.decision}
          request={{ kind: 'write-off', item: open.writeOff }}
          maker={open.writeOff.requestedBy?.id === user?.id}
          onClose={() => setOpen(null)}
          onDone={(result) => {
            setOpen(null);
            const w = result as WriteOff;
            toast({ title: `Write-off of ${w.contractNumber} ${w.status}` });
          }}
        />
      )}
    </>
  );
}

function WriteOffRow({
  writeOff: w,
  mine,
  decides,
  onDecide,
}: {
  writeOff: WriteOff;
  mine: boolean;
  decides: boolean;
  onDecide: (decision: 'approve' | 'reject') => void;
}) {
  return (
    <Card
      className="flex flex-col gap-3 p-4 text-sm sm:flex-row sm:items-start sm:justify-between"
      data-testid={`row-write-off-${w.id}`}
    >
      <div className="grid min-w-0 grid-cols-1 gap-2">
        <p className="flex flex-wrap items-center gap-2">
          <Link
            href={`/contracts/${w.contractId}`}
            className="font-semibold text-primary hover:underline"
            data-testid={`link-write-off-contract-${w.id}`}
          >
            {w.contractNumber}
          </Link>
          <span>{w.customerName}</span>
          <span className="tabular-nums">{money(w.outstanding.total, w.currency)}</span>
          <Badge
            variant={WRITE_OFF_STATUS_VARIANTS[w.status]}
            data-testid={`badge-write-off-${w.id}`}
            data-status={w.status}
          >
            {WRITE_OFF_STATUS_LABELS[w.status]}
          </Badge>
        </p>
        <p>“{w.reason}”</p>
        <div className="max-w-xs">
          <ComponentsTable
            components={w.outstanding}
            currency={w.currency}
            testId={`table-write-off-${w.id}`}
          />
        </div>
        {w.writtenOff && (
          <p data-testid={`text-written-off-${w.id}`}>
            Taken off the books: {money(w.writtenOff.total, w.currency)}
          </p>
        )}
        <p className="text-muted-foreground text-xs">
          Asked by {w.requestedBy?.name ?? 'someone'} · {formatDateTime(w.requestedAt)}
          {w.decidedAt
            ? ` · ${w.status} by ${w.decidedBy?.name ?? 'someone'} ${formatDateTime(w.decidedAt)}`
            : ''}
          {w.decisionNote ? ` · “${w.decisionNote}”` : ''}
        </p>
        {mine && w.status === 'pending' && (
          <p className="font-medium text-xs" data-testid={`text-maker-${w.id}`}>
            You asked for this: a second person must approve or reject it.
          </p>
        )}
      </div>
      {decides && w.status === 'pending' && !mine && (
        <div className="flex shrink-0 gap-2">
          <Button
            size="sm"
            variant="outline"
            onClick={() => onDecide('reject')}
            data-testid={`button-reject-${w.id}`}
          >
            <X aria-hidden="true" />
            Reject
          </Button>
          <Button size="sm" onClick={() => onDecide('approve')} data-testid={`button-approve-${w.id}`}>
            <Check aria-hidden="true" />
            Approve
          </Button>
        </div>
      )}
    </Card>
  );
}
