import { eq, sql } from 'drizzle-orm';
import {
  REPOSSESSION_TRANSITIONS,
  type RepossessionMove,
  type RepossessionStatus,
  WRITE_OFF_TRANSITIONS,
  type WriteOffMove,
  type WriteOffStatus,
} from '../../../contracts/recoveries';
import { repossessions, writeOffRequests } from '../../../db/schema';
import type { TxContext } from '../../context';
import { conflict, notFound } from '../../errors';
import type { Lifecycle } from '../../transitions';
import { addEvent } from '../contracts/events';

export type RepossessionRow = typeof repossessions.$inferSelect;
export type WriteOffRow = typeof writeOffRequests.$inferSelect;

/** What a request's move writes beside its status and version: its columns and the contract's timeline line. */
export interface RequestChange<Row> {
  set: Partial<Omit<Row, 'id' | 'status' | 'version' | 'contractId'>>;
  event: { type: string; message: string; data?: unknown };
}

const REPOSSESSION_REFUSALS: Record<RepossessionMove, (row: RepossessionRow) => string> = {
  approve: (row) => `Only a requested repossession can be approved; this one is ${row.status}`,
  reject: (row) => `Only a requested repossession can be rejected; this one is ${row.status}`,
  recover: (row) =>
    row.status === 'requested'
      ? 'This repossession is not approved yet: a second person must approve it before the device is recovered'
      : `Only an approved repossession can be recovered; this one is ${row.status}`,
  cancel: (row) =>
    `Only a repossession not yet recovered or decided against can be cancelled; this one is ${row.status}`,
};

export const repossessionLifecycle: Lifecycle<
  RepossessionStatus,
  RepossessionMove,
  RepossessionRow,
  RequestChange<RepossessionRow>
> = {
  table: REPOSSESSION_TRANSITIONS,
  async lock(ctx, id) {
    const [row] = await ctx.tx.select().from(repossessions).where(eq(repossessions.id, id)).for('update');
    if (!row) throw notFound('Repossession not found');
    return row;
  },
  refusal: (row, move) => conflict(REPOSSESSION_REFUSALS[move](row), 'RECOVERY_STATE'),
  async write(ctx: TxContext, row, move, change, actor) {
    await ctx.tx
      .update(repossessions)
      .set({
        ...change.set,
        status: REPOSSESSION_TRANSITIONS[move].to,
        version: sql`${repossessions.version} + 1`,
      })
      .where(eq(repossessions.id, row.id));
    await addEvent(ctx, row.contractId, actor, change.event.type, change.event.message, change.event.data);
  },
};

export const writeOffLifecycle: Lifecycle<
  WriteOffStatus,
  WriteOffMove,
  WriteOffRow,
  RequestChange<WriteOffRow>
> = {
  table: WRITE_OFF_TRANSITIONS,
  async lock(ctx, id) {
    const [row] = await ctx.tx
      .select()
      .from(writeOffRequests)
      .where(eq(writeOffRequests.id, id))
      .for('update');
    if (!row) throw notFound('Write-off request not found');
    return row;
  },
  refusal: (row, move) =>
    conflict(
      `This write-off request is already ${row.status}; it cannot be ${move === 'approve' ? 'approved' : 'rejected'} again`,
      'RECOVERY_STATE',
    ),
  async write(ctx, row, move, change, actor) {
    await ctx.tx
      .update(writeOffRequests)
      .set({
        ...change.set,
        status: WRITE_OFF_TRANSITIONS[move].to,
        version: sql`${writeOffRequests.version} + 1`,
      })
      .where(eq(writeOffRequests.id, row.id));
    await addEvent(ctx, row.contractId, actor, change.event.type, change.event.message, change.event.data);
  },
};
