import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Organisation } from '../../../contracts/profile';
import { queryRows } from '../../../db/client';
import { fromRow } from '../../../db/rows';
import type { InstallmentRow } from '../../../db/schema';
import { contractEvents, contractFigures, contractInstallments, contracts } from '../../../db/schema';
import { runWrites, type Writes } from '../../../db/writes';
import {
  type DelinquencySnapshot,
  type InstallmentPosition,
  isSettled,
  overdueBase,
  sumComponents,
} from '../../../domain';
import type { Actor } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext, AppServices, TxContext } from '../../context';
import { notFound, unprocessable } from '../../errors';
import { organisation } from '../../organisation';
import {
  controlledUnits,
  type DeviceControl,
  deviceControlColumn,
  deviceControlFrom,
  extendDeviceAccess,
} from '../devices/commands';
import { addEvent } from './events';
import { type FiguresWrite, figuresJoin, figuresUpdate, type NightlyFigures, nightlyFrom } from './figures';
import { type ContractRow, contractLifecycle } from './lifecycle';
import { contractFiguresChanged } from './list-cache';
import { LIVE_STATUSES, toPosition } from './portfolio';
import { accessBought, type DeviceEffect, deviceAfterRepayment, unlockDue } from './repayment-device';
import { figuresOf } from './standing';

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
  /** The contract's unit, as a payment's answer needs it, when read with the contract. */
  device?: DeviceControl;
}

/** Statuses whose payments may be re-run (a reversal on a contract paid off reopens it). */
const RERUN_STATUSES: readonly string[] = [...LIVE_STATUSES, 'paid_off'];

export async function openForRepayment(
  ctx: TxContext,
  contractId: string,
  purpose: 'payment' | 'rerun',
): Promise<RepaymentState> {
  return (await lockForRepayment(ctx, contractId)).state(purpose);
}

/**
 * What a caller reads beside the contract in `lockForRepayment`'s statement: `writes` run once
 * (an idempotency claim) with their columns; `columns` are reads over the contract row `c`.
 */
export interface Beside {
  writes?: Writes;
  columns?: (contract: SQL) => SQL[];
}

export interface Locked {
  /** The columns of `Beside`, by name. */
  beside: Record<string, unknown>;
  /** The state for a payment or a re-run: 404 when there is no such contract, 422 when it takes no payments. */
  state(purpose: 'payment' | 'rerun'): RepaymentState;
}

/**
 * Locks the contract row (payments on one contract serialise on it) and reads its schedule, its
 * unit's control and the caller's columns in the same statement (decision 022). Those reads see
 * the statement's snapshot, taken before the lock was granted: when the row changed in between
 * (a payment on it committed while this one waited; every change of a schedule or of a
 * contract's payments writes its row), they are read again, now under the lock.
 */
export async function lockForRepayment(
  ctx: TxContext,
  contractId: string,
  beside: Beside = {},
): Promise<Locked> {
  const org = await organisation(ctx, ctx.tx);
  const reads = (c: SQL) => [...contractReads(c), ...(beside.columns?.(c) ?? [])];
  const writes = beside.writes ?? { with: [] };
  const [first] = await queryRows<Record<string, unknown>>(
    ctx.tx,
    sql`WITH ${sql.join([...writes.with, sql`locked AS (SELECT c.*, ${VERSION} AS locked_version FROM ${contracts} c ${figuresJoin()} WHERE c.id = ${contractId} FOR UPDATE)`], sql`, `)}
      SELECT c.*, (SELECT ${VERSION} FROM ${contracts} c ${figuresJoin()} WHERE c.id = ${contractId}) AS seen_version,
        ${sql.join([...(writes.select ?? []), ...reads(sql`c`)], sql`, `)}
      FROM (VALUES (1)) AS one(x) LEFT JOIN locked c ON true`,
    { prepared: true },
  );
  if (!first) throw new Error('The contract lock answered no row');
  let raw = first;
  if (first.id !== null && first.locked_version !== first.seen_version) {
    const [again] = await queryRows<Record<string, unknown>>(
      ctx.tx,
      sql`SELECT c.*, ${sql.join(reads(sql`c`), sql`, `)} FROM ${contracts} c WHERE c.id = ${contractId}`,
    );
    raw = { ...first, ...again };
  }
  return { beside: raw, state: (purpose) => stateOf(ctx, raw, purpose, org) };
}

/** The version of a contract's two rows (`c` and its figures `f`), as text: both xmins. */
const VERSION = sql`(c.xmin::text || ':' || f.xmin::text)`;

/**
 * `lockForRepayment`'s reads without the lock, in one statement on its own, outside a transaction:
 * what a payment would do now (the post form's preview).
 */
export async function peekRepayment(ctx: AppContext, contractId: string): Promise<RepaymentState> {
  const org = await organisation(ctx, ctx.db);
  const [raw] = await queryRows<Record<string, unknown>>(
    ctx.db,
    sql`SELECT c.*, ${sql.join(contractReads(sql`c`), sql`, `)} FROM ${contracts} c ${figuresJoin()} WHERE c.id = ${contractId}`,
    { prepared: true },
  );
  if (!raw) throw notFound('Contract not found');
  return stateOf(ctx, raw, 'payment', org);
}

/** The contract's current schedule (one JSON array per instalment, by number) and its unit's control. */
function contractReads(c: SQL): SQL[] {
  return [
    sql`${scheduleJson(sql`${c}.id`, sql`${c}.schedule_version`)} AS schedule`,
    sql`${deviceControlColumn(sql`${c}.device_id`)} AS device`,
  ];
}

/**
 * A schedule as one JSON array of instalments (each an array, by number): parsed natively by the
 * server, at a fraction of the cost of a row per instalment (`installmentsFrom` reads it).
 */
function scheduleJson(contractId: SQL, version: SQL): SQL {
  return sql`(SELECT json_agg(json_build_array(i.n, i.due_date, i.principal_due, i.interest_due, i.fee_due, i.penalty_due,
        i.principal_paid, i.interest_paid, i.fee_paid, i.penalty_paid, i.settled_at) ORDER BY i.n)
      FROM ${contractInstallments} i WHERE i.contract_id = ${contractId} AND i.schedule_version = ${version})`;
}

function installmentsFrom(row: ContractRow, schedule: unknown): InstallmentRow[] {
  return ((schedule ?? []) as unknown[][]).map(
    ([n, dueDate, pd, id, fd, nd, pp, ip, fp, np, settledAt]): InstallmentRow => ({
      contractId: row.id,
      scheduleVersion: row.scheduleVersion,
      n: Number(n),
      dueDate: String(dueDate),
      principalDue: Number(pd),
      interestDue: Number(id),
      feeDue: Number(fd),
      penaltyDue: Number(nd),
      principalPaid: Number(pp),
      interestPaid: Number(ip),
      feePaid: Number(fp),
      penaltyPaid: Number(np),
      settledAt: settledAt === null ? null : String(settledAt),
    }),
  );
}

function stateOf(
  ctx: AppServices,
  raw: Record<string, unknown> | undefined,
  purpose: 'payment' | 'rerun',
  org: Organisation,
): RepaymentState {
  if (!raw || raw.id === null) throw notFound('Contract not found');
  const row = fromRow(contracts, raw);
  const allowed = purpose === 'payment' ? (LIVE_STATUSES as readonly string[]) : RERUN_STATUSES;
  if (!allowed.includes(row.status)) {
    throw unprocessable(
      `Payments are taken on active contracts; ${row.number} is ${row.status.replace('_', ' ')}`,
      'CONTRACT_NOT_ACTIVE',
    );
  }
  const installments = installmentsFrom(row, raw.schedule);
  return {
    row,
    installments,
    positions: installments.map(toPosition),
    org,
    today: businessToday(ctx, org),
    device: deviceControlFrom(raw.device),
  };
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

/** What an allocation changes on the contract, worked out before anything is written. */
export interface RepaymentPlan {
  before: DelinquencySnapshot;
  after: DelinquencySnapshot;
  /** The instalments whose paid amounts, dues or settled date moved. */
  changed: InstallmentPosition[];
  /** The move the allocation makes: paid off when nothing is left, back to active when a correction reopens it. */
  move: 'payOff' | 'reopen' | null;
  /**
   * The contract row's figures, and the nightly ones in their own row; with the business date
   * when an instalment is left with more to pay than before (the next close looks at its late
   * fees, decision 053).
   */
  figures: Partial<ContractRow>;
  nightly: NightlyFigures & Pick<FiguresWrite, 'feesRecheckOn'>;
  /** When the figures were worked out: both rows' `updated_at`. */
  at: Date;
}

export function planRepayment(
  ctx: AppServices,
  state: RepaymentState,
  positions: readonly InstallmentPosition[],
  totals: RepaymentTotals,
): RepaymentPlan {
  const { row, org } = state;
  const before = figuresOf(row, state.installments, org, state.today);
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
  const rows = positions.map((p) => rowOf(row, p, byN.get(p.n), totals.settledOn));
  const after = figuresOf(row, rows, org, state.today);
  const move =
    after.settled && row.status !== 'paid_off'
      ? 'payOff'
      : !after.settled && row.status === 'paid_off'
        ? 'reopen'
        : null;
  const at = ctx.clock.now();
  const figures = {
    paidThroughDate: after.paidThrough,
    outstandingPrincipal: after.outstanding.principal,
    principalPaid: rows.reduce((sum, r) => sum + r.principalPaid, 0),
    totalPaid: totals.totalPaid,
    creditBalance: totals.credit,
    updatedAt: at,
  };
  const nightly = nightlyFrom(after);
  const reopened = changed.some((p) => {
    const old = byN.get(p.n);
    return overdueBase(p) > (old ? overdueBase(toPosition(old)) : 0);
  });
  return {
    before,
    after,
    changed,
    move,
    figures,
    nightly: reopened ? { ...nightly, feesRecheckOn: state.today } : nightly,
    at,
  };
}

/**
 * The plan's writes when it makes no move, as a part of a larger statement (a payment's,
 * decision 022): the instalments that moved and the contract's figures, only when `when` holds.
 */
export function repaymentWrites(
  ctx: TxContext,
  state: RepaymentState,
  plan: RepaymentPlan,
  settledOn: ReadonlyMap<number, string | null>,
  when: SQL = sql`true`,
): Writes {
  const { row } = state;
  const f = plan.figures;
  const ctes = [
    sql`contract_written AS (
      UPDATE ${contracts} SET paid_through_date = ${f.paidThroughDate}::date,
        outstanding_principal = ${f.outstandingPrincipal}, principal_paid = ${f.principalPaid}, total_paid = ${f.totalPaid},
        credit_balance = ${f.creditBalance}, updated_at = ${f.updatedAt}
      WHERE id = ${row.id} AND ${when})`,
    sql`figures_written AS (${figuresUpdate(row.id, plan.nightly, plan.at, when)})`,
  ];
  if (plan.changed.length) ctes.push(positionsUpdate(state, plan.changed, settledOn, when));
  return { with: ctes, after: [() => contractFiguresChanged(ctx, ctx.tx, [row.id])] };
}

/**
 * Writes the positions after an allocation: the instalments whose paid amounts (or dues) moved
 * and the derived figures for the business date, in one statement; paid off when nothing is left
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
  const plan = planRepayment(ctx, state, positions, totals);
  return applyRepayment(ctx, actor, state, plan, totals);
}

/**
 * `saveRepayment` once its plan is known; `written` when the caller already wrote
 * `repaymentWrites` in its own statement (a plain payment's one write).
 */
export async function applyRepayment(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  plan: RepaymentPlan,
  totals: RepaymentTotals,
  written = false,
): Promise<RepaymentOutcome> {
  const { row } = state;
  const { before, after, figures } = plan;
  if (plan.move) {
    if (plan.changed.length)
      await runWrites(ctx.tx, [{ with: [positionsUpdate(state, plan.changed, totals.settledOn)] }]);
    const now = figures.updatedAt;
    await contractLifecycle.write(
      ctx,
      row,
      plan.move,
      plan.move === 'payOff'
        ? {
            set: { ...figures, closedAt: now },
            figures: plan.nightly,
            event: { type: 'paid_off', message: 'Paid off: every instalment is settled' },
          }
        : {
            set: { ...figures, closedAt: null },
            figures: plan.nightly,
            event: { type: 'reopened', message: 'Reopened: a correction left a balance to pay' },
          },
      actor,
    );
  } else if (!written) {
    await runWrites(ctx.tx, [repaymentWrites(ctx, state, plan, totals.settledOn)]);
  }
  if (totals.rescheduled) {
    await addEvent(
      ctx,
      row.id,
      actor,
      'reamortised',
      'Prepayment reduced the principal; the term is shorter',
    );
  }
  const status = plan.move === 'payOff' ? 'paid_off' : plan.move === 'reopen' ? 'active' : row.status;
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

/** One UPDATE for every instalment that moved (a payment usually moves one or two), as a CTE. */
function positionsUpdate(
  state: RepaymentState,
  changed: readonly InstallmentPosition[],
  settledOn: ReadonlyMap<number, string | null>,
  when: SQL = sql`true`,
): SQL {
  const { row } = state;
  const byN = new Map(state.installments.map((i) => [i.n, i]));
  const col = <T>(pick: (p: InstallmentPosition) => T) => sql.param(changed.map(pick));
  return sql`installments_moved AS (
    UPDATE ${contractInstallments} i SET
      principal_due = v.pd, interest_due = v.id, fee_due = v.fd,
      principal_paid = v.pp, interest_paid = v.ip, fee_paid = v.fp, penalty_paid = v.np,
      settled_at = v.s
    FROM unnest(${col((p) => p.n)}::int[], ${col((p) => p.due.principal)}::bigint[],
      ${col((p) => p.due.interest)}::bigint[], ${col((p) => p.due.fee)}::bigint[],
      ${col((p) => p.paid.principal)}::bigint[], ${col((p) => p.paid.interest)}::bigint[],
      ${col((p) => p.paid.fee)}::bigint[], ${col((p) => p.paid.penalty)}::bigint[],
      ${col((p) => settledValue(p, byN.get(p.n), settledOn))}::date[])
      AS v(n, pd, id, fd, pp, ip, fp, np, s)
    WHERE i.contract_id = ${row.id} AND i.schedule_version = ${row.scheduleVersion} AND i.n = v.n AND ${when})`;
}

/** Outstanding over the whole schedule, for callers that show it. */
export function outstandingTotal(positions: readonly InstallmentPosition[]): number {
  return positions.reduce((sum, p) => sum + sumComponents(p.due) - sumComponents(p.paid), 0);
}

/**
 * `openForRepayment` for many contracts at once (a statement import's chunk): the rows locked in
 * id order in one statement (two runs never deadlock), the schedules in another. A contract that
 * takes no payments is left out, with why.
 */
export async function openManyForRepayment(
  ctx: TxContext,
  contractIds: readonly string[],
): Promise<{ states: Map<string, RepaymentState>; refused: Map<string, string> }> {
  const org = await organisation(ctx, ctx.tx);
  const today = businessToday(ctx, org);
  const ids = [...new Set(contractIds)].sort();
  const rows = ids.length
    ? (
        await queryRows<Record<string, unknown>>(
          ctx.tx,
          // One probe of each table's key per id, in the ids' order (the locks' order): as a join
          // of the id list, the planner read both whole tables for a chunk of 2,000 (decision 042).
          sql`SELECT c.* FROM unnest(${sql.param(ids)}::text[]) WITH ORDINALITY AS v(id, k)
            CROSS JOIN LATERAL (SELECT c.* FROM ${contracts} c ${figuresJoin()} WHERE c.id = v.id FOR UPDATE) c
            ORDER BY v.k`,
          { prepared: true },
        )
      ).map((raw) => fromRow(contracts, raw))
    : [];
  const isLive = (row: (typeof rows)[number]) => (LIVE_STATUSES as readonly string[]).includes(row.status);
  const live = rows.filter(isLive);
  // The schedules after the locks, in a statement of their own (its snapshot sees every write
  // committed before the locks were granted), one JSON array per contract at its locked version.
  const schedules = live.length
    ? await queryRows<{ id: string; schedule: unknown }>(
        ctx.tx,
        sql`SELECT v.id, ${scheduleJson(sql`v.id`, sql`v.version`)} AS schedule
          FROM unnest(${sql.param(live.map((row) => row.id))}::text[], ${sql.param(live.map((row) => row.scheduleVersion))}::int[]) AS v(id, version)`,
        { prepared: true },
      )
    : [];
  const scheduleOf = new Map(schedules.map((raw) => [raw.id, raw.schedule]));
  const states = new Map<string, RepaymentState>();
  const refused = new Map<string, string>();
  for (const row of rows) {
    if (!isLive(row)) {
      refused.set(
        row.id,
        `Payments are taken on active contracts; ${row.number} is ${row.status.replace('_', ' ')}`,
      );
      continue;
    }
    const installments = installmentsFrom(row, scheduleOf.get(row.id));
    states.set(row.id, { row, installments, positions: installments.map(toPosition), org, today });
  }
  for (const id of ids) if (!states.has(id) && !refused.has(id)) refused.set(id, 'Contract not found');
  return { states, refused };
}

/**
 * `saveRepayment` for many contracts (a statement import's chunk), set-based where nothing but
 * figures move (`figuresSavesWrites`): every changed instalment in one statement with every
 * contract's figures, one list eviction; a lock-API unit's days of use with them
 * (`extendDeviceAccess`). A contract paid off (or reopened), re-amortised, on an OpenPAYGO
 * unit (a token) or owed an unlock takes `applyRepayment` on its own, so its moves and device
 * answer are the single payment's.
 */
export async function saveManyRepayments(
  ctx: TxContext,
  actor: Actor,
  saves: ReadonlyArray<{
    state: RepaymentState;
    positions: readonly InstallmentPosition[];
    totals: RepaymentTotals;
  }>,
): Promise<Map<string, RepaymentOutcome>> {
  const outcomes = new Map<string, RepaymentOutcome>();
  const units = await controlledUnits(
    ctx.tx,
    saves.map((save) => save.state.row.deviceId),
  );
  const plain: FiguresSave[] = [];
  const extended: { deviceId: string; activeUntil: string }[] = [];
  for (const { state, positions, totals } of saves) {
    const plan = planRepayment(ctx, state, positions, totals);
    const unit = units.get(state.row.deviceId);
    // A lock-API unit that needs no unlock is answered here, with the others' figures: its days
    // of use move in one statement for the chunk (as `deviceAfterRepayment` moves them one by
    // one). OpenPAYGO units (a token each), unlocks, status moves and re-amortisations go one by one.
    const answeredInBulk =
      !unit || (unit.controlKind === 'lock_api' && !unlockDue(unit, plan.before, plan.after));
    if (plan.move || totals.rescheduled || !answeredInBulk) {
      outcomes.set(state.row.id, await applyRepayment(ctx, actor, { ...state, device: unit }, plan, totals));
      continue;
    }
    plain.push({ state, plan, totals });
    const until = unit ? accessBought(state, plan.after, unit).until : null;
    if (unit && until) extended.push({ deviceId: unit.id, activeUntil: until });
    outcomes.set(state.row.id, {
      before: plan.before,
      after: plan.after,
      device: { token: null, command: null, activeUntil: until ?? unit?.activeUntil ?? null },
      status: state.row.status,
    });
  }
  if (plain.length) await runWrites(ctx.tx, [figuresSavesWrites(ctx, plain)], { prepared: true });
  await extendDeviceAccess(ctx, extended);
  return outcomes;
}

/** A contract's repayment that moves nothing but its figures: no status move, no new dues, no unit to answer. */
export interface FiguresSave {
  state: RepaymentState;
  plan: RepaymentPlan;
  totals: RepaymentTotals;
}

/**
 * The writes of many such repayments as parts of one statement (a batch of payments, decision
 * 044; an import's chunk): the instalments whose paid amounts moved, the contracts' figures and
 * their nightly figures rows, with the contracts lists' eviction after it.
 */
export function figuresSavesWrites(ctx: TxContext, saves: readonly FiguresSave[]): Writes {
  const changed = saves.flatMap(({ state, plan, totals }) => {
    const byN = new Map(state.installments.map((i) => [i.n, i]));
    return plan.changed.map((p) => rowOf(state.row, p, byN.get(p.n), totals.settledOn));
  });
  const ctes: SQL[] = [];
  if (changed.length) {
    const col = <T>(pick: (row: InstallmentRow) => T) => sql.param(changed.map(pick));
    ctes.push(sql`saved_installments AS (
      UPDATE ${contractInstallments} i SET principal_paid = v.pp, interest_paid = v.ip, fee_paid = v.fp,
        penalty_paid = v.np, settled_at = v.s
      FROM unnest(${col((r) => r.contractId)}::text[], ${col((r) => r.scheduleVersion)}::int[], ${col((r) => r.n)}::int[],
        ${col((r) => r.principalPaid)}::bigint[], ${col((r) => r.interestPaid)}::bigint[], ${col((r) => r.feePaid)}::bigint[],
        ${col((r) => r.penaltyPaid)}::bigint[], ${col((r) => r.settledAt)}::date[]) AS v(c, sv, n, pp, ip, fp, np, s)
      WHERE i.contract_id = v.c AND i.schedule_version = v.sv AND i.n = v.n)`);
  }
  if (saves.length) {
    const col = <T>(pick: (s: FiguresSave) => T) => sql.param(saves.map(pick));
    const now = ctx.clock.now();
    ctes.push(
      sql`saved_values AS (SELECT * FROM unnest(${col((s) => s.state.row.id)}::text[],
        ${col((s) => s.plan.nightly.arrearsSince)}::date[], ${col((s) => s.plan.after.paidThrough)}::text[],
        ${col((s) => s.plan.nightly.nextDueDate)}::text[], ${col((s) => s.plan.after.outstanding.principal)}::bigint[],
        ${col((s) => s.plan.nightly.outstandingTotal)}::bigint[], ${col((s) => s.plan.nightly.overdueTotal)}::bigint[],
        ${col((s) => s.totals.totalPaid)}::bigint[], ${col((s) => s.totals.credit)}::bigint[],
        ${col((s) => s.plan.figures.principalPaid)}::bigint[], ${col((s) => s.plan.nightly.feesRecheckOn ?? null)}::date[])
        AS v(id, arrears_since, paid_through, next_due, op, ot, od, tp, cb, pp, recheck))`,
      sql`saved_figures AS (
        UPDATE ${contractFigures} f SET arrears_since = v.arrears_since, next_due_date = v.next_due::date,
          outstanding_total = v.ot, overdue_total = v.od, updated_at = ${now},
          fees_recheck_on = coalesce(v.recheck, f.fees_recheck_on)
        FROM saved_values v WHERE f.contract_id = v.id)`,
      sql`saved_contracts AS (
        UPDATE ${contracts} c SET paid_through_date = v.paid_through::date, outstanding_principal = v.op,
          principal_paid = v.pp, total_paid = v.tp, credit_balance = v.cb, updated_at = ${now}
        FROM saved_values v WHERE c.id = v.id)`,
    );
  }
  const ids = saves.map((save) => save.state.row.id);
  return { with: ctes, after: saves.length ? [() => contractFiguresChanged(ctx, ctx.tx, ids)] : [] };
}
