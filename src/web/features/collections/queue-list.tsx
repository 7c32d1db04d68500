import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ListChecks, MessageSquarePlus, UserPlus, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import {
  collectionEndpoints,
  PROMISE_STATE_LABELS,
  PROMISE_STATES,
  type QueueRow,
} from '@/contracts/collections';
import { can } from '@/contracts/roles';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { type FilterControl, ListPage } from '@/web/components/data-list';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card } from '@/web/components/ui/card';
import {
  ON_WIDE,
  ON_WIDER,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { type ActionTarget, LogActionDialog } from './action-dialog';
import { AssignDialog } from './assign-dialog';
import { ScoreCell } from './score';

/** Days past due in red once a case is past due. */
const dpdTone = (row: QueueRow) => (row.dpd > 0 ? 'font-medium text-destructive' : undefined);
/** A case in the queue only for an instalment due today, not yet past due. */
const dueTodayOnly = (row: QueueRow) => row.dueToday && row.dpd === 0;

const PROMISE_OPTIONS = [
  ...PROMISE_STATES.map((state) => [state, `Promise ${PROMISE_STATE_LABELS[state].toLowerCase()}`] as const),
  ['none', 'No promise'] as const,
];

/** The queue's filter choices and the business date (collectors and above). */
export function useQueueOptions(enabled = true) {
  return useQuery({
    queryKey: queryKeys.collections.options(),
    queryFn: () => api(collectionEndpoints.options),
    staleTime: 60_000,
    enabled,
  });
}

/**
 * The collections queue, highest priority first, each row with the parts of its score. `mine`
 * shows the cases assigned to the person looking. Managers select rows to assign them (one or
 * many) or deal the unassigned cases round-robin; collectors log actions from the row.
 */
export function QueueList({ mine = false }: { mine?: boolean }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const manages = can(user, 'collections.manage');
  const options = useQueueOptions().data;
  const [selected, setSelected] = useState<ReadonlyMap<string, string>>(new Map());
  const [acting, setActing] = useState<ActionTarget | null>(null);
  const [assigning, setAssigning] = useState<{ contractId: string; contractNumber: string }[] | null>(null);
  const [confirmAuto, setConfirmAuto] = useState(false);
  const auto = useMutation({
    mutationFn: () => api(collectionEndpoints.autoAssign, { body: {} }),
    onSuccess: (result) => {
      void invalidate(queryClient, 'collectionsChanged');
      setConfirmAuto(false);
      toast({
        title: `${result.assigned} case${result.assigned === 1 ? '' : 's'} assigned`,
        ...(result.skipped
          ? { description: `${result.skipped} left: no collector with room in their region` }
          : {}),
      });
    },
    onError: (failure) => {
      setConfirmAuto(false);
      toast({
        title: 'The cases could not be assigned',
        description: errorMessage(failure),
        variant: 'destructive',
      });
    },
  });

  const pairs = (list: readonly { id: string; name: string }[] | undefined) =>
    (list ?? []).map((item) => [item.id, item.name] as const);
  const filters: FilterControl[] = [
    {
      name: 'bucket',
      label: 'Bucket',
      allLabel: 'All buckets',
      options: (options?.buckets ?? []).map((b) => [b, `${b} days`] as const),
      testId: 'queue-bucket',
    },
    {
      name: 'region',
      label: 'Region',
      allLabel: 'All regions',
      options: (options?.regions ?? []).map((r) => [r, r] as const),
      testId: 'queue-region',
      keepCurrent: true,
      hideWhenEmpty: true,
    },
    {
      name: 'agentId',
      label: 'Agent',
      allLabel: 'All agents',
      options: pairs(options?.agents),
      testId: 'queue-agent',
      hideWhenEmpty: true,
    },
    {
      name: 'planId',
      label: 'Plan',
      allLabel: 'All plans',
      options: pairs(options?.plans),
      testId: 'queue-plan',
      hideWhenEmpty: true,
    },
    {
      name: 'promiseState',
      label: 'Promise',
      allLabel: 'Any promise',
      options: PROMISE_OPTIONS,
      testId: 'queue-promise',
    },
    ...(mine
      ? []
      : [
          {
            name: 'collectorId',
            label: 'Collector',
            allLabel: 'All collectors',
            options: pairs(options?.collectors),
            testId: 'queue-collector',
            hideWhenEmpty: true,
          },
        ]),
  ];

  const toggle = (row: QueueRow) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(row.contractId)) next.delete(row.contractId);
      else next.set(row.contractId, row.contractNumber);
      return next;
    });

  return (
    <div className="grid min-w-0 grid-cols-1 gap-2">
      <ListPage<QueueRow>
        endpoint={collectionEndpoints.queue}
        label={mine ? 'My queue' : 'Collections queue'}
        testId={mine ? 'my-queue' : 'queue'}
        searchPlaceholder="Search contract or customer"
        filters={filters}
        queryOf={mine ? (state) => ({ ...state, filters: { ...state.filters, mine: 'true' } }) : undefined}
        emptyIcon={ListChecks}
        empty={{
          filtered: 'No case matches these filters.',
          none: mine
            ? 'No case is assigned to you. A manager assigns cases from the queue.'
            : 'No contract is in arrears, due today or behind on a promise.',
        }}
        toolbar={() =>
          manages && !mine ? (
            <Button variant="outline" onClick={() => setConfirmAuto(true)} data-testid="button-auto-assign">
              <Wand2 aria-hidden="true" />
              Auto-assign
            </Button>
          ) : null
        }
        header={() =>
          manages && selected.size > 0 ? (
            <section
              className="mb-2 flex flex-wrap items-center gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm"
              aria-label="Selected cases"
            >
              <span data-testid="text-selected-count">{selected.size} selected</span>
              <Button
                size="sm"
                onClick={() =>
                  setAssigning(
                    [...selected].map(([contractId, contractNumber]) => ({ contractId, contractNumber })),
                  )
                }
                data-testid="button-bulk-assign"
              >
                <UserPlus aria-hidden="true" />
                Assign selected
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setSelected(new Map())}>
                Clear selection
              </Button>
            </section>
          ) : null
        }
        renderItems={(items, fetching) => (
          <Card className="overflow-x-auto p-0">
            <Table
              aria-label={mine ? 'My queue' : 'Collections queue'}
              data-testid={mine ? 'table-my-queue' : 'table-queue'}
            >
              <TableHeader>
                <TableRow>
                  {manages && (
                    <TableHead className="w-8">
                      <input
                        type="checkbox"
                        aria-label="Select every case on this page"
                        checked={items.length > 0 && items.every((row) => selected.has(row.contractId))}
                        onChange={(event) =>
                          setSelected((current) => {
                            const next = new Map(current);
                            for (const row of items)
                              if (event.target.checked) next.set(row.contractId, row.contractNumber);
                              else next.delete(row.contractId);
                            return next;
                          })
                        }
                        data-testid="checkbox-select-page"
                      />
                    </TableHead>
                  )}
                  <TableHead>Score</TableHead>
                  <TableHead>Contract</TableHead>
                  <TableHead className={`text-right ${ON_WIDE}`}>DPD</TableHead>
                  <TableHead className={`text-right ${ON_WIDE}`}>Overdue</TableHead>
                  <TableHead className={ON_WIDER}>Promise</TableHead>
                  <TableHead className={ON_WIDER}>Collector</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody className={fetching ? 'opacity-60' : undefined}>
                {items.map((row) => (
                  <TableRow key={row.contractId} data-testid={`row-case-${row.contractId}`}>
                    {manages && (
                      <TableCell className="align-top">
                        <input
                          type="checkbox"
                          aria-label={`Select ${row.contractNumber}`}
                          checked={selected.has(row.contractId)}
                          onChange={() => toggle(row)}
                          data-testid={`checkbox-case-${row.contractId}`}
                        />
                      </TableCell>
                    )}
                    <TableCell className="align-top">
                      <ScoreCell row={row} />
                    </TableCell>
                    {/* The customer's line wraps, so the row's actions stay in view on a laptop screen. */}
                    <TableCell className="whitespace-normal align-top sm:min-w-48">
                      <Link
                        href={`/contracts/${row.contractId}`}
                        className="font-medium underline-offset-2 hover:underline"
                      >
                        {row.contractNumber}
                      </Link>
                      <span className="block text-muted-foreground text-xs">
                        {row.customerName} · <span className="tabular-nums">{row.customerPhone}</span>
                        {row.region ? ` · ${row.region}` : ''} · {row.planCode}
                        {row.riskGrade ? ` · grade ${row.riskGrade}` : ''}
                      </span>
                      {/* A phone's row: the columns it leaves out, under the contract. */}
                      <span
                        className="mt-1 block text-xs tabular-nums sm:hidden"
                        data-testid={`text-case-figures-${row.contractId}`}
                      >
                        <span className={dpdTone(row)}>
                          {dueTodayOnly(row) ? 'due today' : `${row.dpd} DPD · ${row.bucket}`}
                        </span>{' '}
                        · {money(row.amountOverdue, row.currency)} overdue
                      </span>
                      <span className="block text-muted-foreground text-xs md:hidden">
                        {row.promiseState
                          ? `Promise ${PROMISE_STATE_LABELS[row.promiseState].toLowerCase()}`
                          : 'No promise'}{' '}
                        · {row.collectorName ?? 'unassigned'}
                      </span>
                    </TableCell>
                    <TableCell className={`text-right align-top tabular-nums ${ON_WIDE}`}>
                      <span className={dpdTone(row)}>{row.dpd}</span>
                      <span className="block text-muted-foreground text-xs">
                        {dueTodayOnly(row) ? 'due today' : row.bucket}
                      </span>
                    </TableCell>
                    <TableCell className={`whitespace-nowrap text-right align-top tabular-nums ${ON_WIDE}`}>
                      {money(row.amountOverdue, row.currency)}
                    </TableCell>
                    <TableCell className={`align-top ${ON_WIDER}`}>
                      {row.promiseState ? (
                        <Badge
                          variant={row.promiseState === 'broken' ? 'destructive' : 'outline'}
                          data-testid={`badge-promise-${row.contractId}`}
                        >
                          {PROMISE_STATE_LABELS[row.promiseState]}
                        </Badge>
                      ) : (
                        <span className="text-muted-foreground text-xs">none</span>
                      )}
                    </TableCell>
                    <TableCell className={`align-top ${ON_WIDER}`}>
                      {row.collectorName ?? <span className="text-muted-foreground text-xs">unassigned</span>}
                    </TableCell>
                    <TableCell className="text-right align-top">
                      {/* On a phone the two buttons stand one above the other, their icons alone. */}
                      <div className="flex flex-col items-end gap-2 sm:flex-row sm:justify-end">
                        {manages && (
                          <Button
                            size="sm"
                            variant="outline"
                            onClick={() =>
                              setAssigning([
                                { contractId: row.contractId, contractNumber: row.contractNumber },
                              ])
                            }
                            data-testid={`button-assign-${row.contractId}`}
                          >
                            <UserPlus aria-hidden="true" />
                            <span className="sr-only sm:not-sr-only">Assign</span>
                          </Button>
                        )}
                        <Button
                          size="sm"
                          onClick={() =>
                            setActing({
                              contractId: row.contractId,
                              contractNumber: row.contractNumber,
                              customerName: row.customerName,
                              currency: row.currency,
                              amountOverdue: row.amountOverdue,
                            })
                          }
                          data-testid={`button-log-action-${row.contractId}`}
                        >
                          <MessageSquarePlus aria-hidden="true" />
                          <span className="sr-only sm:not-sr-only">Log action</span>
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Card>
        )}
      />
      {acting && options && (
        <LogActionDialog
          target={acting}
          businessDate={options.businessDate}
          onClose={() => setActing(null)}
        />
      )}
      {assigning && (
        <AssignDialog
          contracts={assigning}
          onClose={() => setAssigning(null)}
          onDone={() => setSelected(new Map())}
        />
      )}
      <ConfirmDialog
        open={confirmAuto}
        onOpenChange={setConfirmAuto}
        title="Assign the unassigned cases?"
        description="Every unassigned case in the queue, highest score first, goes round-robin to the active collectors of its region, each up to their cap of open cases."
        confirmLabel="Assign"
        pending={auto.isPending}
        onConfirm={() => auto.mutate()}
      />
    </div>
  );
}
