import { and, eq, inArray } from 'drizzle-orm';
import type { ContractStatus } from '../../../contracts/contracts';
import type { Components, RecoverBody } from '../../../contracts/recoveries';
import { DEVICE_CONDITION_LABELS } from '../../../contracts/recoveries';
import { repossessions, writeOffRequests } from '../../../db/schema';
import { formatMoney } from '../../../domain';
import { type Actor, type AuditEntry, writeAudit } from '../../audit';
import { businessToday } from '../../business-date';
import type { TxContext } from '../../context';
import { conflict, forbidden, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { transition } from '../../transitions';
import { addEvent } from '../contracts/events';
import {
  closeForRecovery,
  outstandingByComponent,
  type RecoveryContract,
  recoveryContract,
} from '../contracts/recovery';
import { returnUnitFromCustomer } from '../devices/returns';
import { contractReceivables } from '../ledger/receivables';
import { post } from '../ledger/service';
import { notify, resolveTask } from '../notifications/service';
import { repossessionLifecycle, writeOffLifecycle } from './lifecycle';
import { recoveryLines, withTotal, writeOffLines } from './postings';

/**
 * Repossessions and write-offs (PRODUCT.md section 2, Collections), with maker-checker: one person
 * asks, with a reason; another with `recoveries.approve` decides; the maker never decides their own.
 * A recovered repossession brings the unit back to inventory as returned with its condition, posts
 * its recovery value into inventory against the receivables, closes the contract as repossessed and
 * writes off the rest or keeps it as a receivable. An approved write-off takes the receivables still
 * on the books off against credit losses, by component, and closes the contract as written off.
 */

export const repossessionTask = (id: string) => `repossession:${id}`;
export const writeOffTask = (id: string) => `write-off:${id}`;

const LIVE: readonly ContractStatus[] = ['active', 'defaulted'];
const WRITABLE_OFF: readonly ContractStatus[] = ['active', 'defaulted', 'repossessed'];

const money = (amount: number, currency: string) => formatMoney(amount, currency);

/** A line on the customer's timeline (its audit trail) naming the contract. */
const customerLine = (contract: RecoveryContract, summary: string): AuditEntry => ({
  action: 'customer.recovery',
  entityType: 'customer',
  entityId: contract.customerId,
  after: { contractId: contract.id, summary },
});

function notMaker(row: { requestedBy: string | null }, actor: Actor, what: string) {
  if (row.requestedBy && row.requestedBy === actor.id) {
    throw forbidden(`Whoever asked for a ${what} cannot decide it; a second person must`, 'MAKER_CHECKER');
  }
}

async function openRepossession(ctx: TxContext, contractId: string) {
  const [open] = await ctx.tx
    .select({ id: repossessions.id, status: repossessions.status })
    .from(repossessions)
    .where(
      and(eq(repossessions.contractId, contractId), inArray(repossessions.status, ['requested', 'approved'])),
    );
  return open;
}

async function openWriteOff(ctx: TxContext, contractId: string) {
  const [open] = await ctx.tx
    .select({ id: writeOffRequests.id })
    .from(writeOffRequests)
    .where(and(eq(writeOffRequests.contractId, contractId), eq(writeOffRequests.status, 'pending')));
  return open;
}

export async function requestRepossession(
  ctx: TxContext,
  actor: Actor,
  contractId: string,
  reason: string,
): Promise<string> {
  const contract = await recoveryContract(ctx.tx, contractId, true);
  if (!LIVE.includes(contract.status)) {
    throw conflict(
      `Only an active or defaulted contract's device can be repossessed; ${contract.number} is ${contract.status.replace('_', ' ')}`,
      'CONTRACT_STATE',
    );
  }
  if (await openRepossession(ctx, contractId)) {
    throw conflict(`${contract.number} already has a repossession under way`, 'RECOVERY_STATE');
  }
  if (await openWriteOff(ctx, contractId)) {
    throw conflict(
      `${contract.number} has a write-off waiting for approval; decide it first`,
      'RECOVERY_STATE',
    );
  }
  const outstanding = await outstandingByComponent(ctx.tx, contractId);
  const id = newId();
  await ctx.tx.insert(repossessions).values({
    id,
    contractId,
    deviceId: contract.deviceId,
    reason,
    outstandingAtRequest: outstanding,
    requestedBy: actor.id,
    requestedAt: ctx.clock.now(),
  });
  await addEvent(ctx, contractId, actor, 'repossession_requested', `Repossession requested: ${reason}`, {
    repossessionId: id,
  });
  await notify(
    ctx,
    { permission: 'recoveries.approve' },
    {
      title: 'Repossession waiting for approval',
      message: `${contract.number} (${money(outstanding.total, contract.currency)} outstanding): ${reason}`,
      type: 'warning',
      link: '/collections?tab=repossessions',
      category: 'approvals',
      task: repossessionTask(id),
    },
  );
  await writeAudit(ctx.tx, actor, {
    action: 'repossession.request',
    entityType: 'repossession',
    entityId: id,
    after: { contractId, reason, outstanding },
  });
  await writeAudit(
    ctx.tx,
    actor,
    customerLine(contract, `Repossession of ${contract.number} requested: ${reason}`),
  );
  return id;
}

/** Approves or rejects a requested repossession: never by whoever asked for it. */
export async function decideRepossession(
  ctx: TxContext,
  actor: Actor,
  id: string,
  decision: 'approve' | 'reject',
  note: string | undefined,
): Promise<void> {
  let contract: RecoveryContract | undefined;
  const row = await transition(ctx, repossessionLifecycle, id, decision, {
    actor,
    async check(row) {
      notMaker(row, actor, 'repossession');
      contract = await recoveryContract(ctx.tx, row.contractId);
    },
    change: () => ({
      set: { decidedBy: actor.id, decidedAt: ctx.clock.now(), decisionNote: note ?? null },
      event: {
        type: decision === 'approve' ? 'repossession_approved' : 'repossession_rejected',
        message:
          decision === 'approve'
            ? `Repossession approved${note ? `: ${note}` : ''}`
            : `Repossession rejected${note ? `: ${note}` : ''}`,
        data: { repossessionId: id },
      },
    }),
    audit: () => ({
      action: decision === 'approve' ? 'repossession.approve' : 'repossession.reject',
      entityType: 'repossession',
      entityId: id,
      before: { status: 'requested' },
      after: { status: decision === 'approve' ? 'approved' : 'rejected', note: note ?? null },
    }),
    alsoAudited: () =>
      contract
        ? [
            customerLine(
              contract,
              `Repossession of ${contract.number} ${decision === 'approve' ? 'approved' : 'rejected'}`,
            ),
          ]
        : [],
  });
  await resolveTask(ctx, repossessionTask(row.id));
}

/** Cancels a repossession not yet recovered (the customer paid, the device cannot be found). */
export async function cancelRepossession(
  ctx: TxContext,
  actor: Actor,
  id: string,
  reason: string,
): Promise<void> {
  let contract: RecoveryContract | undefined;
  await transition(ctx, repossessionLifecycle, id, 'cancel', {
    actor,
    async check(row) {
      contract = await recoveryContract(ctx.tx, row.contractId);
    },
    change: () => ({
      set: { decisionNote: reason, decidedBy: actor.id, decidedAt: ctx.clock.now() },
      event: {
        type: 'repossession_cancelled',
        message: `Repossession cancelled: ${reason}`,
        data: { repossessionId: id },
      },
    }),
    audit: (before) => ({
      action: 'repossession.cancel',
      entityType: 'repossession',
      entityId: id,
      before: { status: before.status },
      after: { status: 'cancelled', reason },
    }),
    alsoAudited: () =>
      contract ? [customerLine(contract, `Repossession of ${contract.number} cancelled: ${reason}`)] : [],
  });
  await resolveTask(ctx, repossessionTask(id));
}

/**
 * The device is back: the unit returns to inventory as returned with its condition and at its
 * recovery value; one journal entry puts that value into inventory against the receivables (and
 * writes off the rest when asked); the contract closes as repossessed.
 */
export async function recoverRepossession(
  ctx: TxContext,
  actor: Actor,
  id: string,
  input: RecoverBody & { recoveryValue: number },
): Promise<void> {
  const org = await organisation(ctx, ctx.tx);
  const today = businessToday(ctx, org);
  const writeOff = input.balance === 'write_off';
  const notes = input.conditionNotes?.trim() ? input.conditionNotes.trim() : null;
  let contract: RecoveryContract | undefined;
  let serial = '';
  await transition(ctx, repossessionLifecycle, id, 'recover', {
    actor,
    async check(row) {
      contract = await recoveryContract(ctx.tx, row.contractId);
      if (contract.deviceId !== row.deviceId) {
        throw unprocessable(
          'The contract no longer holds the device this repossession names',
          'RECOVERY_STATE',
        );
      }
    },
    async change(row) {
      if (!contract) throw new Error('Recovery read no contract');
      const c = contract;
      const book = await contractReceivables(ctx.tx, row.contractId);
      const { lines, left, applied } = recoveryLines(book, input.recoveryValue, writeOff, {
        contractId: c.id,
        customerId: c.customerId,
      });
      const writtenOff = writeOff ? withTotal(left) : null;
      const outstanding = await outstandingByComponent(ctx.tx, c.id);
      // The contract closes first (409 if it is no longer live), its unit back in stock as returned.
      await closeForRecovery(ctx, actor, c.id, 'repossess', {
        message: `Closed by repossession; device recovered in ${DEVICE_CONDITION_LABELS[input.condition].toLowerCase()} condition, valued ${money(input.recoveryValue, c.currency)}; ${
          writeOff
            ? `${money(writtenOff?.total ?? 0, c.currency)} written off`
            : 'the balance is kept as a receivable'
        }`,
        data: { repossessionId: id, recoveryValue: input.recoveryValue, balance: input.balance, writtenOff },
        figures: writeOff
          ? { outstandingPrincipal: 0, outstandingTotal: 0 }
          : {
              outstandingPrincipal: Math.max(0, outstanding.principal - applied.principal),
              outstandingTotal: Math.max(0, outstanding.total - withTotal(applied).total),
            },
        effects: async () => {
          serial = await returnUnitFromCustomer(ctx, actor, {
            deviceId: row.deviceId,
            contractId: c.id,
            contractNumber: c.number,
            condition: input.condition,
            conditionNotes: notes,
            recoveryValue: input.recoveryValue,
          });
        },
      });
      const total = lines.reduce((sum, line) => sum + (line.debit ?? 0), 0);
      const journalEntryId =
        total > 0
          ? await post(ctx.tx, actor, {
              businessDate: today,
              description: `Repossession of ${c.number} (device ${serial})${writeOff ? ', balance written off' : ''}`,
              sourceType: 'repossession',
              sourceId: id,
              currency: c.currency,
              lines,
            })
          : null;
      return {
        set: {
          recoveredBy: actor.id,
          recoveredAt: ctx.clock.now(),
          condition: input.condition,
          conditionNotes: notes,
          recoveryValue: input.recoveryValue,
          balanceTreatment: input.balance,
          writtenOff,
          journalEntryId,
        },
        event: {
          type: 'repossession_recovered',
          message: `Device ${serial} recovered (${DEVICE_CONDITION_LABELS[input.condition].toLowerCase()}${notes ? `: ${notes}` : ''}), back in stock as returned`,
          data: { repossessionId: id },
        },
      };
    },
    audit: () => ({
      action: 'repossession.recover',
      entityType: 'repossession',
      entityId: id,
      before: { status: 'approved' },
      after: {
        status: 'recovered',
        condition: input.condition,
        conditionNotes: notes,
        recoveryValue: input.recoveryValue,
        balance: input.balance,
      },
    }),
    alsoAudited: () =>
      contract
        ? [
            customerLine(
              contract,
              `Device of ${contract.number} repossessed; contract closed${writeOff ? ', balance written off' : ', balance kept as a receivable'}`,
            ),
          ]
        : [],
  });
}

export async function requestWriteOff(
  ctx: TxContext,
  actor: Actor,
  contractId: string,
  reason: string,
): Promise<string> {
  const contract = await recoveryContract(ctx.tx, contractId, true);
  if (!WRITABLE_OFF.includes(contract.status)) {
    throw conflict(
      `Only an active, defaulted or repossessed contract can be written off; ${contract.number} is ${contract.status.replace('_', ' ')}`,
      'CONTRACT_STATE',
    );
  }
  if (await openWriteOff(ctx, contractId)) {
    throw conflict(`${contract.number} already has a write-off waiting for approval`, 'RECOVERY_STATE');
  }
  if (await openRepossession(ctx, contractId)) {
    throw conflict(
      `${contract.number} has a repossession under way; its recovery decides what happens to the balance`,
      'RECOVERY_STATE',
    );
  }
  const book = withTotal(await contractReceivables(ctx.tx, contractId));
  if (book.total === 0) {
    throw unprocessable(`${contract.number} has nothing owed on the books to write off`, 'RULE');
  }
  const outstanding = await outstandingByComponent(ctx.tx, contractId);
  const id = newId();
  await ctx.tx.insert(writeOffRequests).values({
    id,
    contractId,
    reason,
    outstanding,
    requestedBy: actor.id,
    requestedAt: ctx.clock.now(),
  });
  await addEvent(
    ctx,
    contractId,
    actor,
    'write_off_requested',
    `Write-off of ${money(outstanding.total, contract.currency)} requested: ${reason}`,
    { writeOffId: id },
  );
  await notify(
    ctx,
    { permission: 'recoveries.approve' },
    {
      title: 'Write-off waiting for approval',
      message: `${contract.number} (${money(outstanding.total, contract.currency)}): ${reason}`,
      type: 'warning',
      link: '/collections?tab=write-offs',
      category: 'approvals',
      task: writeOffTask(id),
    },
  );
  await writeAudit(ctx.tx, actor, {
    action: 'write_off.request',
    entityType: 'write_off_request',
    entityId: id,
    after: { contractId, reason, outstanding },
  });
  await writeAudit(
    ctx.tx,
    actor,
    customerLine(contract, `Write-off of ${contract.number} requested: ${reason}`),
  );
  return id;
}

/**
 * Approves a write-off: the balance now (by component) is recorded on the request, the
 * receivables still on the books are written off against credit losses, the contract closes as
 * written off. A second approval finds the request approved: 409, nothing written.
 */
export async function approveWriteOff(
  ctx: TxContext,
  actor: Actor,
  id: string,
  note?: string,
): Promise<void> {
  const org = await organisation(ctx, ctx.tx);
  const today = businessToday(ctx, org);
  let contract: RecoveryContract | undefined;
  let outstanding: Components | undefined;
  await transition(ctx, writeOffLifecycle, id, 'approve', {
    actor,
    async check(row) {
      notMaker(row, actor, 'write-off');
      contract = await recoveryContract(ctx.tx, row.contractId);
    },
    async change(row) {
      if (!contract) throw new Error('Write-off read no contract');
      const c = contract;
      outstanding = await outstandingByComponent(ctx.tx, c.id);
      const book = await contractReceivables(ctx.tx, c.id);
      const writtenOff = withTotal(book);
      await closeForRecovery(ctx, actor, c.id, 'writeOff', {
        message: `Written off: ${money(outstanding.total, c.currency)} outstanding (principal ${money(outstanding.principal, c.currency)}, interest ${money(outstanding.interest, c.currency)}, fees ${money(outstanding.fees, c.currency)}, penalties ${money(outstanding.penalties, c.currency)})`,
        data: { writeOffId: row.id, outstanding, writtenOff },
        figures: { outstandingPrincipal: 0, outstandingTotal: 0 },
      });
      const journalEntryId =
        writtenOff.total > 0
          ? await post(ctx.tx, actor, {
              businessDate: today,
              description: `Write-off of ${c.number}`,
              sourceType: 'write_off',
              sourceId: row.id,
              currency: c.currency,
              lines: writeOffLines(book, { contractId: c.id, customerId: c.customerId }),
            })
          : null;
      return {
        set: {
          outstanding,
          writtenOff,
          journalEntryId,
          decidedBy: actor.id,
          decidedAt: ctx.clock.now(),
          decisionNote: note ?? null,
        },
        event: {
          type: 'write_off_approved',
          message: `Write-off approved${note ? `: ${note}` : ''}`,
          data: { writeOffId: row.id },
        },
      };
    },
    audit: () => ({
      action: 'write_off.approve',
      entityType: 'write_off_request',
      entityId: id,
      before: { status: 'pending' },
      after: { status: 'approved', outstanding, note: note ?? null },
    }),
    alsoAudited: () =>
      contract && outstanding
        ? [
            customerLine(
              contract,
              `${contract.number} written off (${money(outstanding.total, contract.currency)})`,
            ),
          ]
        : [],
  });
  await resolveTask(ctx, writeOffTask(id));
}

export async function rejectWriteOff(
  ctx: TxContext,
  actor: Actor,
  id: string,
  reason: string,
): Promise<void> {
  let contract: RecoveryContract | undefined;
  await transition(ctx, writeOffLifecycle, id, 'reject', {
    actor,
    async check(row) {
      notMaker(row, actor, 'write-off');
      contract = await recoveryContract(ctx.tx, row.contractId);
    },
    change: () => ({
      set: { decidedBy: actor.id, decidedAt: ctx.clock.now(), decisionNote: reason },
      event: {
        type: 'write_off_rejected',
        message: `Write-off rejected: ${reason}`,
        data: { writeOffId: id },
      },
    }),
    audit: () => ({
      action: 'write_off.reject',
      entityType: 'write_off_request',
      entityId: id,
      before: { status: 'pending' },
      after: { status: 'rejected', reason },
    }),
    alsoAudited: () => (contract ? [customerLine(contract, `Write-off of ${contract.number} rejected`)] : []),
  });
  await resolveTask(ctx, writeOffTask(id));
}
