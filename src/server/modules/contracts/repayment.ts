import { and, asc, eq, sql } from 'drizzle-orm';
import type { Organisation } from '../../../contracts/profile';
import { contractEvents, contractInstallments, contracts } from '../../../db/schema';
import {
  type DelinquencySnapshot,
  type InstallmentPosition,
  isSettled,
  sumComponents,
} from '../../../domain';
import type { Actor } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext, AppServices, Executor, TxContext } from '../../context';
import { notFound, unprocessable } from '../../errors';
import { organisation } from '../../organisation';
import { addEvent } from './events';
import { type ContractRow, contractLifecycle, lockContract } from './lifecycle';
import { contractsChanged } from './list-cache';
import { LIVE_STATUSES, toPosition } from './portfolio';
import { type DeviceEffect, deviceAfterRepayment } from './repayment-device';
import { contractFigures } from './standing';

type InstallmentRow = typeof contractInstallments.$inferSelect;

/**
 * The contracts side of a payment (the payments area allocates; this area owns the schedule and
 * the contract's derived figures). `openForRepayment` locks the contract row (payments on one
 * contract serialise on it) and reads its current schedule; `saveRepayment` writes the positions
 * the allocation produced, the derived figures, the paid-off move, and the device's response.
 */
export interface RepaymentState {
  row: ContractRow;
  installments: InstallmentRow[];
  positions: InstallmentPosition[];
  org: Organisation;
  today: string;
}

/** Statuses whose payments may be re-run (a reversal on a contract paid off reopens it). */
const RERUN_STATUSES: readonly string[] = [...LIVE_STATUSES, 'paid_off'];

export async function openForRepayment(
  ctx: TxContext,
  contractId: string,
  purpose: 'payment' | 'rerun',
): Promise<RepaymentState> {
  return stateOf(ctx, ctx.tx, await lockContract(ctx, contractId), purpose);
}

/** The same, unlocked and outside a transaction: what a payment would do now (the post form's preview). */
export async function peekRepayment(ctx: AppContext, contractId: string): Promise<RepaymentState> {
  const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, contractId));
  if (!row) throw notFound('Contract not found');
  return stateOf(ctx, ctx.db, row, 'payment');
}

async function stateOf(
  ctx: AppServices,
  executor: Executor,
  row: ContractRow,
  purpose: 'payment' | 'rerun',
): Promise<RepaymentState> {
  const allowed = purpose === 'payment' ? (LIVE_STATUSES as readonly string[]) : RERUN_STATUSES;
  if (!allowed.includes(row.status)) {
    throw unprocessable(
      `Payments are taken on active contracts; ${row.number} is ${row.status.replace('_', ' ')}`,
      'CONTRACT_NOT_ACTIVE',
    );
  }
  const installments = await executor
    .select()
    .from(contractInstallments)
    .where(
      and(
        eq(contractInstallments.contractId, row.id),
        eq(contractInstallments.scheduleVersion, row.scheduleVersion),
      ),
    )
    .orderBy(asc(contractInstallments.n));
  const org = await organisation(ctx, executor);
  return { row, installments, positions: installments.map(toPosition), org, today: businessToday(ctx, org) };
}

/** Whether a principal-reduction prepayment re-amortised the schedule (re-runs start from the original dues, which are gone). */
export async function wasReamortised(ctx: TxContext, contractId: string): Promise<boolean> {
  const [row] = await ctx.tx
    .select({ id: contractEvents.id })
    .from(contractEvents)
    .where(and(eq(contractEvents.contractId, contractId), eq(contractEvents.type, 'reamortised')))
    .limit(1);
  return row !== undefined;
}

export interface RepaymentOutcome {
  before: DelinquencySnapshot;
  after: DelinquencySnapshot;
  device: DeviceEffect;
  status: ContractRow['status'];
}

export interface RepaymentTotals {
  /** All posted payments (deposits excluded) on the contract. */
  totalPaid: number;
  /** Customer credit held (payment parts beyond the whole balance). */
  credit: number;
  /** Value date per instalment settled by the allocation (null: no longer settled). */
  settledOn: ReadonlyMap<number, string | null>;
  /** The schedule's dues changed (principal reduction re-amortised it). */
  rescheduled: boolean;
  /** What caused it, for the device command log. */
  source: { type: string; id: string };
}

/**
 * Writes the positions after an allocation: the instalments whose paid amounts (or dues) moved,
 * in one statement; the derived figures for the business date; paid off when nothing is left
 * (and back to active when a reversal reopens it); then the device's response (a token for the
 * days bought, an unlock when arrears are cleared, a release when paid off).
 */
export async function saveRepayment(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  positions: readonly InstallmentPosition[],
  totals: RepaymentTotals,
): Promise<RepaymentOutcome> {
  const { row, org } = state;
  const before = contractFigures(row, state.installments, org, state.today);
  const byN = new Map(state.installments.map((i) => [i.n, i]));
  const changed = positions.filter((p) => {
    const old = byN.get(p.n);
    if (!old) return true;
    const settled = totals.settledOn.has(p.n) ? totals.settledOn.get(p.n) : old.settledAt;
    return (
      old.principalPaid !== p.paid.principal ||
      old.interestPaid !== p.paid.interest ||
      old.feePaid !== p.paid.fee ||
      old.penaltyPaid !== p.paid.penalty ||
      old.principalDue !== p.due.principal ||
      old.interestDue !== p.due.interest ||
      old.feeDue !== p.due.fee ||
      old.settledAt !== settled
    );
  });
  if (changed.length) await writePositions(ctx, row, changed, byN, totals.settledOn);
  const rows = positions.map((p) => rowOf(row, p, byN.get(p.n), totals.settledOn));
  const after = contractFigures(row, rows, org, state.today);
  if (totals.rescheduled) {
    await addEvent(
      ctx,
      row.id,
      actor,
      'reamortised',
      'Prepayment reduced the principal; the term is shorter',
    );
  }
  const now = ctx.clock.now();
  const figures = {
    dpd: after.dpd,
    bucket: after.bucket.label,
    paidThroughDate: after.paidThrough,
    nextDueDate: after.nextDue?.dueDate ?? null,
    outstandingPrincipal: after.outstanding.principal,
    outstandingTotal: after.totalOutstanding,
    totalPaid: totals.totalPaid,
    creditBalance: totals.credit,
    updatedAt: now,
  };
  let status = row.status;
  if (after.settled && row.status !== 'paid_off') {
    status = 'paid_off';
    await contractLifecycle.write(
      ctx,
      row,
      'payOff',
      {
        set: { ...figures, closedAt: now },
        event: { type: 'paid_off', message: 'Paid off: every instalment is settled' },
      },
      actor,
    );
  } else if (!after.settled && row.status === 'paid_off') {
    status = 'active';
    await contractLifecycle.write(
      ctx,
      row,
      'reopen',
      {
        set: { ...figures, closedAt: null },
        event: { type: 'reopened', message: 'Reopened: a correction left a balance to pay' },
      },
      actor,
    );
  } else {
    await ctx.tx.update(contracts).set(figures).where(eq(contracts.id, row.id));
  }
  await contractsChanged(ctx, ctx.tx);
  const device = await deviceAfterRepayment(ctx, actor, state, before, after, status, totals.source);
  return { before, after, device, status };
}

function settledValue(
  p: InstallmentPosition,
  old: InstallmentRow | undefined,
  settledOn: ReadonlyMap<number, string | null>,
): string | null {
  if (settledOn.has(p.n)) return settledOn.get(p.n) ?? null;
  if (!isSettled(p)) return null;
  return old?.settledAt ?? null;
}

function rowOf(
  row: ContractRow,
  p: InstallmentPosition,
  old: InstallmentRow | undefined,
  settledOn: ReadonlyMap<number, string | null>,
): InstallmentRow {
  return {
    contractId: row.id,
    scheduleVersion: row.scheduleVersion,
    n: p.n,
    dueDate: p.dueDate,
    principalDue: p.due.principal,
    interestDue: p.due.interest,
    feeDue: p.due.fee,
    penaltyDue: p.due.penalty,
    principalPaid: p.paid.principal,
    interestPaid: p.paid.interest,
    feePaid: p.paid.fee,
    penaltyPaid: p.paid.penalty,
    settledAt: settledValue(p, old, settledOn),
  };
}

/** One UPDATE for every instalment that moved (a payment usually moves one or two). */
async function writePositions(
  ctx: TxContext,
  row: ContractRow,
  changed: readonly InstallmentPosition[],
  byN: ReadonlyMap<number, InstallmentRow>,
  settledOn: ReadonlyMap<number, string | null>,
): Promise<void> {
  const col = <T>(pick: (p: InstallmentPosition) => T) => `{${changed.map(pick).join(',')}}`;
  const settled = `{${changed
    .map((p) => settledValue(p, byN.get(p.n), settledOn))
    .map((v) => (v === null ? 'NULL' : v))
    .join(',')}}`;
  await ctx.tx.execute(sql`
    UPDATE ${contractInstallments} i SET
      principal_due = v.pd, interest_due = v.id, fee_due = v.fd,
      principal_paid = v.pp, interest_paid = v.ip, fee_paid = v.fp, penalty_paid = v.np,
      settled_at = v.s
    FROM unnest(${col((p) => p.n)}::int[], ${col((p) => p.due.principal)}::bigint[],
      ${col((p) => p.due.interest)}::bigint[], ${col((p) => p.due.fee)}::bigint[],
      ${col((p) => p.paid.principal)}::bigint[], ${col((p) => p.paid.interest)}::bigint[],
      ${col((p) => p.paid.fee)}::bigint[], ${col((p) => p.paid.penalty)}::bigint[], ${settled}::date[])
      AS v(n, pd, id, fd, pp, ip, fp, np, s)
    WHERE i.contract_id = ${row.id} AND i.schedule_version = ${row.scheduleVersion} AND i.n = v.n`);
}

/** Outstanding over the whole schedule, for callers that show it. */
export function outstandingTotal(positions: readonly InstallmentPosition[]): number {
  return positions.reduce((sum, p) => sum + sumComponents(p.due) - sumComponents(p.paid), 0);
}
