import { eq, sql } from 'drizzle-orm';
import { CONTRACT_TRANSITIONS, type ContractMove, type ContractStatus } from '../../../contracts/contracts';
import { queryRows } from '../../../db/client';
import { fromRow } from '../../../db/rows';
import { contracts } from '../../../db/schema';
import type { TxContext } from '../../context';
import { conflict, notFound } from '../../errors';
import type { Lifecycle } from '../../transitions';
import { addEvent } from './events';
import { type FiguresWrite, figuresJoin, figuresUpdate } from './figures';
import { contractsChanged } from './list-cache';

export type ContractRow = typeof contracts.$inferSelect;

/** What a move writes beside the status and version: its own columns and its timeline line. */
export interface ContractChange {
  set?: Partial<Omit<ContractRow, 'id' | 'status' | 'version'>>;
  /** The nightly figures the move changes (decision 041). */
  figures?: FiguresWrite;
  event: { type: string; message: string; data?: unknown };
}

const statusText = (row: ContractRow) => row.status.replace('_', ' ');

/** Why a contract in its status cannot make the move, as staff would read it. */
const REFUSALS: Record<ContractMove, (row: ContractRow) => string> = {
  submit: (row) => `Only a draft can be submitted; ${row.number} is ${statusText(row)}`,
  approve: (row) => `Only a contract pending approval can be approved; ${row.number} is ${statusText(row)}`,
  return: (row) => `Only a contract pending approval can be sent back; ${row.number} is ${statusText(row)}`,
  activate: (row) =>
    row.status === 'draft'
      ? `${row.number} is a draft: submit it for approval first`
      : `${row.number} is ${statusText(row)}: only an approved contract awaiting activation can be activated`,
  cancel: (row) => `Only a contract not yet active can be cancelled; ${row.number} is ${statusText(row)}`,
  payOff: (row) => `Only a live contract can be paid off; ${row.number} is ${statusText(row)}`,
  reopen: (row) => `Only a paid-off contract can be reopened; ${row.number} is ${statusText(row)}`,
  default: (row) => `Only an active contract can be defaulted; ${row.number} is ${statusText(row)}`,
  repossess: (row) =>
    `Only an active or defaulted contract can close by repossession; ${row.number} is ${statusText(row)}`,
  writeOff: (row) =>
    `Only an active, defaulted or repossessed contract can be written off; ${row.number} is ${statusText(row)}`,
};

/**
 * The contract row and its figures row, locked for the rest of the transaction: money changes on
 * one contract serialise, and the close's steps, which write only the figures, wait for them.
 */
export async function lockContract(ctx: TxContext, id: string): Promise<ContractRow> {
  const [row] = await queryRows<Record<string, unknown>>(
    ctx.tx,
    sql`SELECT c.* FROM ${contracts} c ${figuresJoin()} WHERE c.id = ${id} FOR UPDATE`,
  );
  if (!row) throw notFound('Contract not found');
  return fromRow(contracts, row);
}

export const contractLifecycle: Lifecycle<ContractStatus, ContractMove, ContractRow, ContractChange> = {
  table: CONTRACT_TRANSITIONS,
  lock: lockContract,
  refusal: (row, move) => conflict(REFUSALS[move](row), 'CONTRACT_STATE'),
  async write(ctx, row, move, change, actor) {
    await ctx.tx
      .update(contracts)
      .set({
        updatedAt: ctx.clock.now(),
        ...change.set,
        status: CONTRACT_TRANSITIONS[move].to,
        version: sql`${contracts.version} + 1`,
      })
      .where(eq(contracts.id, row.id));
    if (change.figures) await ctx.tx.execute(figuresUpdate(row.id, change.figures, ctx.clock.now()));
    await addEvent(ctx, row.id, actor, change.event.type, change.event.message, change.event.data);
    await contractsChanged(ctx, ctx.tx);
  },
};
