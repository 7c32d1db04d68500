import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Check, Inbox, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { type Correction, paymentEndpoints } from '@/contracts/payments';
import { can } from '@/contracts/roles';
import { Pagination } from '@/web/components/data-list/pagination';
import { EmptyMessage } from '@/web/components/empty-message';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card } from '@/web/components/ui/card';
import { Label } from '@/web/components/ui/label';
import { Skeleton } from '@/web/components/ui/skeleton';
import { Switch } from '@/web/components/ui/switch';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { DecisionDialog } from './correction-dialogs';
import {
  CORRECTION_LABELS,
  CORRECTION_STATUS_LABELS,
  CORRECTION_STATUS_VARIANTS,
  receiptHref,
} from './format';

const PAGE_SIZE = 25;

/**
 * The corrections queue: reversals and transfers waiting for a second finance user, and with the
 * switch on, those already decided. The person who asked sees their request and is told that
 * someone else decides it (the server refuses them with MAKER_CHECKER, shown in the dialog).
 */
export function CorrectionsList() {
  const { user } = useAuth();
  const id = useId();
  const [decided, setDecided] = useState(false);
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<{ decision: 'approve' | 'reject'; correction: Correction } | null>(
    null,
  );
  const query = { ...(decided ? {} : { status: 'pending' as const }), page, pageSize: PAGE_SIZE };
  const list = useQuery({
    queryKey: [...queryKeys.payments.corrections(), query],
    queryFn: () => api(paymentEndpoints.corrections, { query }),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const decides = can(user, 'payments.manage');
  const items = list.data?.items ?? [];

  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted-foreground text-sm">
          Reversals and transfers take effect only once a second finance user approves them.
        </p>
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-decided`}
            checked={decided}
            onCheckedChange={(next) => {
              setDecided(next);
              setPage(1);
            }}
            data-testid="switch-show-decided"
          />
          <Label htmlFor={`${id}-decided`}>Show decided ones too</Label>
        </div>
      </div>
      {list.isLoading ? (
        <div role="status" className="grid grid-cols-1 gap-2">
          <span className="sr-only">Loading corrections…</span>
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : list.error ? (
        <Card role="alert" className="p-4 text-destructive text-sm" data-testid="error-corrections">
          Corrections could not be loaded: {errorMessage(list.error)}
        </Card>
      ) : items.length === 0 ? (
        <Card>
          <EmptyMessage icon={Inbox} testId="empty-corrections">
            {decided ? 'No corrections yet.' : 'Nothing waiting for approval.'}
          </EmptyMessage>
        </Card>
      ) : (
        <ul className="grid grid-cols-1 gap-2" data-testid="list-corrections">
          {items.map((c) => (
            <CorrectionRow
              key={c.id}
              correction={c}
              mine={c.requestedBy === user?.id}
              decides={decides}
              onDecide={(decision) => setDeciding({ decision, correction: c })}
            />
          ))}
        </ul>
      )}
      {list.data && list.data.total > PAGE_SIZE && (
        <Pagination
          page={page}
          pageSize={PAGE_SIZE}
          total={list.data.total}
          onPage={setPage}
          testId="corrections"
        />
      )}
      {deciding && (
        <DecisionDialog
          decision={deciding.decision}
          correction={deciding.correction}
          maker={deciding.correction.requestedBy === user?.id}
          onClose={() => setDeciding(null)}
          onDone={(result) => {
            setDeciding(null);
            toast({
              title: `${CORRECTION_LABELS[result.kind]} of ${result.payment.receiptNumber} ${result.status}`,
            });
          }}
        />
      )}
    </div>
  );
}

function CorrectionRow({
  correction: c,
  mine,
  decides,
  onDecide,
}: {
  correction: Correction;
  mine: boolean;
  decides: boolean;
  onDecide: (decision: 'approve' | 'reject') => void;
}) {
  const p = c.payment;
  return (
    <li>
      <Card
        className="flex flex-col gap-3 p-4 text-sm sm:flex-row sm:items-start sm:justify-between"
        data-testid={`row-correction-${c.id}`}
      >
        <div className="min-w-0 grid grid-cols-1 gap-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">{CORRECTION_LABELS[c.kind]}</span>
            <Link
              href={receiptHref(p)}
              className="font-medium text-primary hover:underline"
              data-testid={`link-correction-receipt-${c.id}`}
            >
              {p.receiptNumber}
            </Link>
            <span className="tabular-nums">{money(p.amount, p.currency)}</span>
            <Badge
              variant={CORRECTION_STATUS_VARIANTS[c.status]}
              data-testid={`badge-correction-${c.id}`}
              data-status={c.status}
            >
              {CORRECTION_STATUS_LABELS[c.status]}
            </Badge>
          </p>
          <p className="text-muted-foreground">
            {p.customerName ?? '—'} · {p.contractNumber ?? '—'}
            {c.kind === 'transfer' ? ` → ${c.targetContractNumber ?? '—'}` : ''}
          </p>
          <p>“{c.reason}”</p>
          <p className="text-muted-foreground text-xs">
            Asked by {c.requestedByName ?? 'someone'} · {formatDateTime(c.requestedAt)}
            {c.decidedAt
              ? ` · ${c.status} by ${c.decidedByName ?? 'someone'} ${formatDateTime(c.decidedAt)}`
              : ''}
            {c.decisionNote ? ` · “${c.decisionNote}”` : ''}
          </p>
          {mine && c.status === 'pending' && (
            <p className="font-medium text-xs" data-testid={`text-maker-${c.id}`}>
              You asked for this: a second finance user must approve or reject it.
            </p>
          )}
        </div>
        {decides && c.status === 'pending' && (
          <div className="flex shrink-0 gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={() => onDecide('reject')}
              data-testid={`button-reject-${c.id}`}
            >
              <X aria-hidden="true" />
              Reject
            </Button>
            <Button size="sm" onClick={() => onDecide('approve')} data-testid={`button-approve-${c.id}`}>
              <Check aria-hidden="true" />
              Approve
            </Button>
          </div>
        )}
      </Card>
    </li>
  );
}
