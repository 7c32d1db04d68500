import { sql } from 'drizzle-orm';
import type { ContractStatus } from '../../../contracts/contracts';
import type { Components } from '../../../contracts/recoveries';
import { queryRows } from '../../../db/client';
import { contractInstallments, contracts } from '../../../db/schema';
import type { Actor, AuditEntry } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { notFound } from '../../errors';
import { transition } from '../../transitions';
import { type ContractRow, contractLifecycle } from './lifecycle';

/** What the recoveries area needs of a contract to ask for or decide a repossession or write-off. */
export interface RecoveryContract {
  id: string;
  number: string;
  status: ContractStatus;
  customerId: string;
  deviceId: string;
  currency: string;
}

/** The contract's parties and status, locked when `forUpdate` (the caller's transaction then owns the row). */
export async function recoveryContract(
  executor: Executor,
  id: string,
  forUpdate = false,
): Promise<RecoveryContract> {
  const [row] = await queryRows<{
    id: string;
    number: string;
    status: ContractStatus;
    customer_id: string;
    device_id: string;
    currency: string;
  }>(
    executor,
    sql`SELECT id, number, status, customer_id, device_id, currency FROM ${contracts} WHERE id = ${id}
        ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  if (!row) throw notFound('Contract not found');
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    customerId: row.customer_id,
    deviceId: row.device_id,
    currency: row.currency,
  };
}

/**
 * What the customer still owes on the contract's current schedule, by component (due less paid,
 * every instalment, due or not): the figure a repossession or write-off is decided on.
 */
export async function outstandingByComponent(executor: Executor, id: string): Promise<Components> {
  const [row] = await queryRows<{ principal: string; interest: string; fees: string; penalties: string }>(
    executor,
    sql`SELECT COALESCE(sum(i.principal_due - i.principal_paid), 0) AS principal,
               COALESCE(sum(i.interest_due - i.interest_paid), 0) AS interest,
               COALESCE(sum(i.fee_due - i.fee_paid), 0) AS fees,
               COALESCE(sum(i.penalty_due - i.penalty_paid), 0) AS penalties
        FROM ${contracts} c
        JOIN ${contractInstallments} i ON i.contract_id = c.id AND i.schedule_version = c.schedule_version
        WHERE c.id = ${id}`,
  );
  const principal = Number(row?.principal ?? 0);
  const interest = Number(row?.interest ?? 0);
  const fees = Number(row?.fees ?? 0);
  const penalties = Number(row?.penalties ?? 0);
  return { principal, interest, fees, penalties, total: principal + interest + fees + penalties };
}

/**
 * Closes a live contract by repossession, or writes off an active, defaulted or repossessed one
 * (CONTRACT_TRANSITIONS `repossess`, `writeOff`), in the caller's transaction: the contract's
 * lifecycle locks, refuses a move from another status (409 CONTRACT_STATE), writes the status,
 * the stored figures and the timeline line, runs `effects` (the device) and writes the audit rows.
 * A closed contract is out of arrears (dpd 0, no next due): it is no longer chased.
 */
export async function closeForRecovery(
  ctx: TxContext,
  actor: Actor,
  id: string,
  move: 'repossess' | 'writeOff',
  spec: {
    message: string;
    data: Record<string, unknown>;
    /** The stored balance figures after the close (lists, filters): nothing when written off. */
    figures: { outstandingPrincipal: number; outstandingTotal: number };
    effects?: (row: ContractRow) => Promise<unknown>;
    alsoAudited?: readonly AuditEntry[];
  },
): Promise<ContractRow> {
  const row = await transition(ctx, contractLifecycle, id, move, {
    actor,
    change: () => ({
      set: {
        closedAt: ctx.clock.now(),
        outstandingPrincipal: spec.figures.outstandingPrincipal,
      },
      figures: { nextDueDate: null, outstandingTotal: spec.figures.outstandingTotal, arrearsSince: null },
      event: {
        type: move === 'repossess' ? 'repossessed' : 'written_off',
        message: spec.message,
        data: spec.data,
      },
    }),
    effects: spec.effects,
    audit: (before) => ({
      action: move === 'repossess' ? 'contract.repossess' : 'contract.write_off',
      entityType: 'contract',
      entityId: id,
      before: { status: before.status },
      after: { status: move === 'repossess' ? 'repossessed' : 'written_off', ...spec.data },
    }),
    alsoAudited: () => spec.alsoAudited ?? [],
  });
  return row;
}
