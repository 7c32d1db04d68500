import { canMove, type TransitionTable } from '../contracts/transitions';
import { type Actor, type AuditEntry, writeAudit } from './audit';
import type { TxContext } from './context';
import type { AppError } from './errors';

/**
 * How one entity with a status is locked, refused and moved: what `transition()` needs beside
 * the entity's table (src/contracts). One per entity (contracts/lifecycle.ts,
 * devices/lifecycle.ts, customers/document-lifecycle.ts).
 */
export interface Lifecycle<S extends string, M extends string, Row extends { status: S }, Change> {
  table: TransitionTable<S, M>;
  /** The row, locked until the transaction ends (404 when there is none). */
  lock(ctx: TxContext, id: string): Promise<Row>;
  /** The refusal of a move the table does not allow from the row's status: 409 or 422, with a code. */
  refusal(row: Row, move: M): AppError;
  /**
   * Writes the move on the locked row: the new status, the version raised by one, the move's
   * own columns, and the line in the entity's timeline or status history, and tells the lists
   * (sent after the commit: decision 024).
   */
  write(ctx: TxContext, row: Row, move: M, change: Change, actor: Actor): Promise<void>;
}

export interface TransitionSpec<Row, Change> {
  actor: Actor;
  /** The move's own rules beyond the table (maker-checker, activation's conditions), on the locked row. */
  check?(row: Row): void | Promise<void>;
  /** The move's columns and timeline line; may do work that must come first (activation re-dates the schedule). */
  change(row: Row): Change | Promise<Change>;
  /** What the move does to other areas once written (a device handed over, the ledger), in the same transaction. */
  effects?(row: Row): Promise<unknown>;
  /** People told of the move (notifications), in the same transaction. */
  notify?(row: Row): Promise<unknown>;
  /** The move's audit row. */
  audit(row: Row): AuditEntry;
  /** Audit rows of other entities the effects changed (a customer's KYC status), written after the move's own. */
  alsoAudited?(): readonly AuditEntry[];
}

/**
 * One audited state change, in the caller's transaction: locks the row, refuses a move its
 * table does not allow (nothing is written then), checks the move's own rules, writes the new
 * status with the version raised and the timeline or history line, does the move's effects,
 * notifies, and writes the audit row last (it takes the chain lock, held to commit).
 * Answers the row as it was before the move.
 */
export async function transition<S extends string, M extends string, Row extends { status: S }, Change>(
  ctx: TxContext,
  lifecycle: Lifecycle<S, M, Row, Change>,
  id: string,
  move: M,
  spec: TransitionSpec<Row, Change>,
): Promise<Row> {
  const row = await lifecycle.lock(ctx, id);
  if (!canMove(lifecycle.table, move, row.status)) throw lifecycle.refusal(row, move);
  await spec.check?.(row);
  await lifecycle.write(ctx, row, move, await spec.change(row), spec.actor);
  await spec.effects?.(row);
  await spec.notify?.(row);
  await writeAudit(ctx.tx, spec.actor, spec.audit(row));
  for (const entry of spec.alsoAudited?.() ?? []) await writeAudit(ctx.tx, spec.actor, entry);
  return row;
}
