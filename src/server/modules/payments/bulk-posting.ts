import { sql } from 'drizzle-orm';
import type { DraftMapping } from '../../../contracts/payment-imports';
import { queryRows } from '../../../db/client';
import { type paymentImportRows, payments as paymentsTable } from '../../../db/schema';
import { formatMoney, type InstallmentPosition } from '../../../domain';
import type { Actor } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { TxContext } from '../../context';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { savepoint } from '../../transaction';
import { addEvents } from '../contracts/events';
import {
  openManyForRepayment,
  type RepaymentState,
  type RepaymentTotals,
  saveManyRepayments,
} from '../contracts/repayment';
import { postMany } from '../ledger/bulk';
import { rowMethod } from './imports';
import { notifyAgentsOfImport } from './notices';
import { allocate, allocationPosting, type Line, optionsOf, postPayment } from './posting';
import { allocatedPayment, recordAllocationLines, recordPayments } from './service';

type ImportRowRecord = typeof paymentImportRows.$inferSelect;
type Method = Parameters<typeof postPayment>[2]['method'];

export interface ChunkInput {
  importId: string;
  method: Method;
  mapping: { columns: string[]; mapping: DraftMapping };
  rows: ImportRowRecord[];
}

export interface ChunkResult {
  /** Rows posted by this chunk, and their sum. */
  posted: number;
  amount: number;
  /** Rows that turned out not to be postable (already posted meanwhile, or refused by the posting rules). */
  refused: number;
}

/** A chunk's row as bulk posting handles it. */
interface Pending {
  row: ImportRowRecord;
  id: string;
  method: Method;
  amount: number;
  receivedAt: Date;
  valueDate: string;
  lines: Line[];
  credit: number;
}

/**
 * Posts one chunk of an import's valid rows in the caller's transaction, in bulk: rows grouped
 * by contract, contracts locked one by one in id order (`openForRepayment`, so two runs never
 * deadlock), each contract's rows allocated in memory by the engine in value-date order, then
 * the payments, their allocation lines and journal entries written with multi-row statements,
 * and each contract's figures, device and timeline saved once (`saveRepayment`: one token for
 * the days all its rows bought). A contract whose rows are not its newest payments (back-dated)
 * takes the single-payment path (`postPayment`, which re-runs the allocation), row by row.
 *
 * No audit row per payment: the import's confirm wrote one (`payment.import_confirm`), and every
 * payment carries the import's id (`payments.import_id`).
 */
export async function postImportChunk(ctx: TxContext, actor: Actor, input: ChunkInput): Promise<ChunkResult> {
  const outcome: RowOutcome[] = [];
  const byContract = new Map<string, ImportRowRecord[]>();
  for (const row of input.rows) {
    const list = byContract.get(row.contractId as string) ?? [];
    list.push(row);
    byContract.set(row.contractId as string, list);
  }
  const methodOf = (row: ImportRowRecord) =>
    rowMethod(
      input.mapping.mapping,
      input.mapping.columns,
      (row.raw as { cells: string[] }).cells,
      input.method,
    ) ?? input.method;

  // References taken since the preview (another channel, another import): not posted twice.
  const taken = await takenReferences(
    ctx,
    input.rows.map((row) => ({ method: methodOf(row), reference: row.reference as string })),
  );
  const latest = await latestPayments(ctx, [...byContract.keys()]);
  const slow: ImportRowRecord[] = [];
  const groups: { state: RepaymentState; pending: Pending[] }[] = [];
  const freshByContract = new Map<string, ImportRowRecord[]>();
  for (const contractId of [...byContract.keys()].sort()) {
    const rows = byContract.get(contractId) ?? [];
    const fresh: ImportRowRecord[] = [];
    for (const row of rows) {
      const earlier = taken.get(`${methodOf(row)}\u0000${row.reference}`);
      if (earlier) {
        const same = earlier.contractId === row.contractId && earlier.amount === row.amount;
        outcome.push({
          rowNumber: row.rowNumber,
          paymentId: same ? earlier.id : null,
          error: same
            ? 'already_posted: Posted meanwhile by another delivery of the same payment'
            : `duplicate_reference: The reference ${row.reference} was used meanwhile for another payment`,
        });
      } else fresh.push(row);
    }
    if (fresh.length) freshByContract.set(contractId, fresh);
  }
  // Every contract of the chunk locked in id order in one statement, its schedule in another.
  const { states, refused } = await openManyForRepayment(ctx, [...freshByContract.keys()]);
  for (const [contractId, fresh] of freshByContract) {
    const state = states.get(contractId);
    if (!state) {
      const why = refused.get(contractId) ?? 'Contract not found';
      for (const row of fresh)
        outcome.push({ rowNumber: row.rowNumber, paymentId: null, error: `failed: ${why}` });
      continue;
    }
    const pending = fresh
      .map((row) => {
        const receivedAt = row.receivedAt as Date;
        return {
          row,
          id: newId(),
          method: methodOf(row),
          amount: row.amount as number,
          receivedAt,
          valueDate: businessDateOf(receivedAt, state.org),
          lines: [] as Line[],
          credit: 0,
        };
      })
      .sort((x, y) =>
        x.valueDate !== y.valueDate
          ? x.valueDate < y.valueDate
            ? -1
            : 1
          : x.receivedAt.getTime() - y.receivedAt.getTime() || x.row.rowNumber - y.row.rowNumber,
      );
    const last = latest.get(contractId);
    const first = pending[0] as Pending;
    const backDated =
      last !== undefined &&
      (first.valueDate < last.valueDate ||
        (first.valueDate === last.valueDate && first.receivedAt.getTime() < last.receivedAt.getTime()));
    const activatedAt = state.row.activatedAt?.getTime() ?? 0;
    if (backDated || pending.some((p) => p.receivedAt.getTime() < activatedAt)) {
      slow.push(...fresh);
      continue;
    }
    groups.push({ state, pending });
  }

  // Allocation in memory, contract by contract, payment by payment in value-date order.
  const payments: (Pending & { state: RepaymentState })[] = [];
  const saves: {
    state: RepaymentState;
    positions: InstallmentPosition[];
    totals: RepaymentTotals;
    amount: number;
    last: Pending;
    count: number;
  }[] = [];
  for (const { state, pending } of groups) {
    const options = optionsOf(state);
    const settledOn = new Map<number, string | null>();
    let positions = state.positions;
    let credit = 0;
    let paid = 0;
    let rescheduled = false;
    for (const p of pending) {
      const result = allocate(positions, p.amount, p.valueDate, options, settledOn);
      positions = result.positions;
      p.lines = result.lines;
      p.credit = result.credit;
      credit += result.credit;
      paid += p.amount;
      rescheduled ||= result.rescheduled;
      payments.push({ ...p, state });
    }
    const last = pending.at(-1) as Pending;
    saves.push({
      state,
      positions,
      amount: paid,
      last,
      count: pending.length,
      totals: {
        totalPaid: state.row.totalPaid + paid,
        credit: state.row.creditBalance + credit,
        settledOn,
        rescheduled,
        source: { type: 'payment', id: last.id },
      },
    });
  }

  const postedAt = ctx.clock.now();
  await recordPayments(
    ctx.tx,
    payments.map((p) => ({
      id: p.id,
      contractId: p.state.row.id,
      customerId: p.state.row.customerId,
      amount: p.amount,
      currency: p.state.row.currency,
      method: p.method,
      provider: p.method,
      reference: p.row.reference,
      receivedAt: p.receivedAt,
      valueDate: p.valueDate,
      importId: input.importId,
      credit: p.credit,
      postedBy: actor.id,
      postedAt,
    })),
  );
  await recordAllocationLines(
    ctx.tx,
    payments.flatMap((p) =>
      p.lines.map((line) => ({
        ...line,
        paymentId: p.id,
        contractId: p.state.row.id,
        scheduleVersion: p.state.row.scheduleVersion,
      })),
    ),
  );
  await postMany(
    ctx.tx,
    actor,
    payments.flatMap((p) => allocationPosting(p.state, p, p.lines, p.valueDate, 'payment') ?? []),
  );
  const outcomes = await saveManyRepayments(ctx, actor, saves);
  await addEvents(
    ctx,
    actor,
    saves.map((save) => {
      const count = save.count;
      const amount = formatMoney(save.amount, save.state.row.currency);
      const device = outcomes.get(save.state.row.id)?.device;
      return {
        contractId: save.state.row.id,
        type: 'payment',
        message:
          count === 1
            ? `Payment of ${amount} received (${save.last.method.replace('_', ' ')}, statement import)`
            : `${count} payments of ${amount} in all received (statement import)`,
        data: {
          paymentId: save.last.id,
          importId: input.importId,
          token: device?.token ?? null,
          command: device?.command ?? null,
          backDated: false,
        },
      };
    }),
  );
  await notifyAgentsOfImport(
    ctx,
    saves.map((save) => save.state.row.id),
    input.importId,
  );
  for (const p of payments) outcome.push({ rowNumber: p.row.rowNumber, paymentId: p.id, error: null });
  let posted = payments.length;
  let amount = payments.reduce((sum, p) => sum + p.amount, 0);

  // Back-dated rows: the single-payment path re-runs the contract's allocation from their date.
  for (const row of slow.sort(
    (x, y) => (x.receivedAt as Date).getTime() - (y.receivedAt as Date).getTime(),
  )) {
    try {
      const result = await savepoint(ctx, (tx) =>
        postPayment(tx, actor, {
          contractId: row.contractId as string,
          amount: row.amount as number,
          method: methodOf(row),
          reference: row.reference,
          receivedAt: row.receivedAt,
          importId: input.importId,
        }),
      );
      if (result.created) {
        posted += 1;
        amount += row.amount as number;
        outcome.push({ rowNumber: row.rowNumber, paymentId: result.paymentId, error: null });
      } else {
        outcome.push({
          rowNumber: row.rowNumber,
          paymentId: result.paymentId,
          error: 'already_posted: Posted meanwhile by another delivery of the same payment',
        });
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome.push({ rowNumber: row.rowNumber, paymentId: null, error: `failed: ${error.message}` });
    }
  }
  await markRows(ctx, input.importId, outcome);
  return { posted, amount, refused: outcome.filter((o) => o.error !== null).length };
}

interface RowOutcome {
  rowNumber: number;
  paymentId: string | null;
  error: string | null;
}

/** Payments already recorded with these (method, reference) pairs. */
async function takenReferences(ctx: TxContext, pairs: readonly { method: string; reference: string }[]) {
  const rows = await queryRows<{
    id: string;
    contract_id: string | null;
    amount: string;
    method: string;
    reference: string;
  }>(
    ctx.tx,
    sql`SELECT p.id, p.contract_id, p.amount, p.method, p.reference
      FROM unnest(${sql.param(pairs.map((p) => p.method))}::text[], ${sql.param(pairs.map((p) => p.reference))}::text[]) AS v(method, reference)
      JOIN ${paymentsTable} p ON p.method = v.method AND p.reference = v.reference`,
  );
  return new Map(
    rows.map((row) => [
      `${row.method}\u0000${row.reference}`,
      { id: row.id, contractId: row.contract_id, amount: Number(row.amount) },
    ]),
  );
}

/** Each contract's newest posted payment (value date, then receipt time): rows before it are back-dated. */
async function latestPayments(ctx: TxContext, contractIds: readonly string[]) {
  const rows = await queryRows<{ contract_id: string; value_date: string; received_at: string | Date }>(
    ctx.tx,
    // One probe per contract down its (contract, value date, receipt) index: as one scan with
    // `contract_id = ANY(...)` a chunk of 2,000 contracts was planned as a scan of every payment.
    sql`SELECT v.contract_id, p.value_date::text AS value_date, p.received_at
      FROM unnest(${sql.param(contractIds)}::text[]) AS v(contract_id)
      CROSS JOIN LATERAL (SELECT value_date, received_at FROM ${paymentsTable} p
        WHERE p.contract_id = v.contract_id AND ${allocatedPayment(sql`p`)}
        ORDER BY p.value_date DESC, p.received_at DESC LIMIT 1) p`,
  );
  return new Map(
    rows.map((row) => [
      row.contract_id,
      { valueDate: row.value_date, receivedAt: new Date(row.received_at) },
    ]),
  );
}

/** Each row's payment or reason, in one statement. */
export async function markRows(
  ctx: TxContext,
  importId: string,
  outcome: readonly { rowNumber: number; paymentId: string | null; error: string | null }[],
): Promise<void> {
  if (!outcome.length) return;
  await ctx.tx.execute(sql`
    UPDATE payment_import_rows r SET payment_id = v.payment_id, error = v.error
    FROM unnest(${sql.param(outcome.map((o) => o.rowNumber))}::int[], ${sql.param(outcome.map((o) => o.paymentId))}::text[],
                ${sql.param(outcome.map((o) => o.error))}::text[]) AS v(row_number, payment_id, error)
    WHERE r.import_id = ${importId} AND r.row_number = v.row_number`);
}
