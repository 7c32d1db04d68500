import { and, eq, sql } from 'drizzle-orm';
import { contractInstallments, contracts } from '../../../db/schema';
import type { Frequency, InterestMethod, Schedule, ScheduleRow } from '../../../domain';
import { buildSchedule, formatMoney, messageDate, messageMoney } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessToday } from '../../business-date';
import type { Executor, TxContext } from '../../context';
import { conflict, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { numbered } from '../../numbers';
import { organisation } from '../../organisation';
import { transition } from '../../transitions';
import { uniqueViolation } from '../../unique';
import { ACCOUNTS, type PostingLine, post } from '../ledger/service';
import { queueMessage } from '../messages/outbox';
import { notify, resolveTask } from '../notifications/service';
import { paymentInstructions } from '../payments/mobile-money/instructions';
import { depositReceived } from '../payments/service';
import { planTerms } from '../plans/service';
import type { ContractParts } from './detail';
import { addEvent } from './events';
import { CLEAR_FIGURES, figuresUpdate } from './figures';
import { type ContractRow, contractLifecycle } from './lifecycle';
import { contractsChanged } from './list-cache';
import { assignDevice, customerOf, deviceOf, releaseDevice, reserveDevice } from './parties';
import { type QuoteInput, quoteContract } from './quote';

/**
 * A schedule version's instalments in one statement, a typed array per column: a 3,660-row daily
 * schedule as a multi-row VALUES would need 25,000 parameters to bind, and arrays parse faster
 * than the same rows as JSON.
 */
async function insertInstallments(
  executor: Executor,
  contractId: string,
  version: number,
  rows: readonly ScheduleRow[],
): Promise<void> {
  // Array literals written here: numbers and ISO dates need no quoting, and joining them is a
  // fifth of the driver's general array encoding.
  const column = (key: 'n' | 'dueDate' | 'principal' | 'interest' | 'serviceFee') =>
    `{${rows.map((row) => row[key]).join(',')}}`;
  await executor.execute(sql`
    INSERT INTO ${contractInstallments} (contract_id, schedule_version, n, due_date, principal_due, interest_due, fee_due)
    SELECT ${contractId}, ${version}, * FROM unnest(${column('n')}::int[], ${column('dueDate')}::date[],
      ${column('principal')}::bigint[], ${column('interest')}::bigint[], ${column('serviceFee')}::bigint[])`);
}

/** The engine's schedule for a contract's own terms (copied from its plan version when it was made). */
function scheduleFrom(row: ContractRow, startDate: string): Schedule {
  return buildSchedule({
    principal: row.principal,
    apr: row.apr,
    frequency: row.frequency as Frequency,
    term: row.term,
    method: row.interestMethod as InterestMethod,
    startDate,
    installmentMultiple: row.installmentMultiple,
    serviceFeePerPeriod: row.serviceFee,
  });
}

/**
 * A draft contract: the terms copied from the plan version, the schedule from the engine, the
 * device reserved so no one else can finance it. Answers with the parts it wrote (what
 * contractDetail would read back, without reading it back).
 */
export async function createDraft(ctx: TxContext, actor: Actor, input: QuoteInput): Promise<ContractParts> {
  const id = newId();
  // The device is locked and checked again (still in stock) when it is reserved, and an open
  // contract per device is a unique index.
  const quote = await quoteContract(ctx, input, ctx.tx);
  const { schedule, plan } = quote;
  const first = schedule.rows[0];
  const last = schedule.rows.at(-1);
  if (!first || !last) throw new Error('An empty schedule');
  const created = { type: 'created', message: `Draft created on plan ${plan.code} v${plan.version}` };
  const { tx } = ctx;
  try {
    const [contract] = await tx
      .insert(contracts)
      .values({
        id,
        number: numbered('contract_number_seq', 'CT-'),
        customerId: quote.customer.id,
        deviceId: quote.device.device.id,
        planId: plan.id,
        terms: { planId: plan.id, version: plan.version, ...planTerms(plan) },
        currency: quote.currency,
        cashPrice: quote.cashPrice,
        deposit: quote.deposit,
        principal: quote.principal,
        apr: plan.apr,
        frequency: plan.frequency,
        term: input.term,
        interestMethod: plan.interestMethod,
        installmentMultiple: plan.installmentMultiple,
        serviceFee: plan.serviceFee,
        installment: schedule.totals.installment,
        totalInterest: schedule.totals.totalInterest,
        totalPayable: schedule.totals.totalPayable,
        startDate: quote.startDate,
        firstDueDate: first.dueDate,
        lastDueDate: last.dueDate,
        status: 'draft',
        createdBy: actor.id,
        createdAt: ctx.clock.now(),
        outstandingPrincipal: quote.principal,
      })
      .returning();
    if (!contract) throw new Error('The contract was not written');
    // Its figures row came with the insert (migration 0038's trigger), at the defaults.
    await tx.execute(
      figuresUpdate(
        id,
        { outstandingTotal: schedule.totals.totalPayable, nextDueDate: first.dueDate },
        ctx.clock.now(),
      ),
    );
    await insertInstallments(tx, id, contract.scheduleVersion, schedule.rows);
    await contractsChanged(ctx, tx);
    await reserveDevice(ctx, actor, quote.device.device.id, id, contract.number);
    const event = await addEvent(ctx, id, actor, created.type, created.message, {
      deposit: quote.deposit,
      term: input.term,
    });
    await writeAudit(tx, actor, {
      action: 'contract.create',
      entityType: 'contract',
      entityId: id,
      after: {
        number: contract.number,
        customerId: quote.customer.id,
        deviceId: quote.device.device.id,
        planId: plan.id,
        deposit: quote.deposit,
        term: input.term,
      },
    });
    return {
      contract,
      customer: quote.customer,
      device: { ...quote.device.device, status: 'reserved' },
      model: quote.device.model,
      plan,
      installments: schedule.rows.map((row) => ({
        contractId: id,
        scheduleVersion: contract.scheduleVersion,
        n: row.n,
        dueDate: row.dueDate,
        principalDue: row.principal,
        interestDue: row.interest,
        feeDue: row.serviceFee,
        penaltyDue: 0,
        principalPaid: 0,
        interestPaid: 0,
        feePaid: 0,
        penaltyPaid: 0,
        settledAt: null,
      })),
      payments: [],
      events: [{ ...event, ...created, actorId: actor.id }],
      tokens: [],
      names: actor.id && actor.name ? { [actor.id]: actor.name } : {},
    };
  } catch (error) {
    if (uniqueViolation(error) === 'contracts_open_device_key') {
      throw conflict('This device is already in another open contract', 'DEVICE_TAKEN');
    }
    throw error;
  }
}

/**
 * The task key of a contract's notifications that ask someone to act (approve it, activate it,
 * revise it). Each move of the contract does that work or makes it moot, so it resolves them
 * for everyone before notifying about the next step.
 */
export const contractTask = (id: string) => `contract:${id}`;

export async function submitForApproval(ctx: TxContext, actor: Actor, id: string): Promise<void> {
  await transition(ctx, contractLifecycle, id, 'submit', {
    actor,
    change: () => ({
      set: { submittedBy: actor.id, submittedAt: ctx.clock.now() },
      event: { type: 'submitted', message: 'Submitted for approval' },
    }),
    notify: async (row) => {
      await resolveTask(ctx, contractTask(id));
      await notify(
        ctx,
        { permission: 'contracts.approve' },
        {
          title: 'Contract waiting for approval',
          message: `${row.number} needs a second person to approve it`,
          type: 'warning',
          link: `/contracts/${id}`,
          category: 'approvals',
          task: contractTask(id),
        },
      );
    },
    audit: (row) => ({
      action: 'contract.submit',
      entityType: 'contract',
      entityId: id,
      before: { status: row.status },
      after: { status: 'pending_approval' },
    }),
  });
}

/** Maker-checker: whoever created or submitted the contract cannot approve it. */
export async function approve(ctx: TxContext, actor: Actor, id: string): Promise<void> {
  await transition(ctx, contractLifecycle, id, 'approve', {
    actor,
    check(row) {
      if (row.approvedAt) throw conflict(`${row.number} is already approved`, 'CONTRACT_STATE');
      if (actor.id === row.createdBy || actor.id === row.submittedBy) {
        throw unprocessable(
          'You created or submitted this contract; another person must approve it',
          'MAKER_CHECKER',
        );
      }
    },
    change: () => ({
      set: { approvedBy: actor.id, approvedAt: ctx.clock.now() },
      event: { type: 'approved', message: 'Approved' },
    }),
    notify: async (row) => {
      await resolveTask(ctx, contractTask(id));
      if (!row.createdBy) return;
      await notify(
        ctx,
        { userId: row.createdBy },
        {
          title: 'Contract approved',
          message: `${row.number} was approved and can be activated`,
          type: 'success',
          link: `/contracts/${id}`,
          category: 'approvals',
          task: contractTask(id),
        },
      );
    },
    audit: () => ({ action: 'contract.approve', entityType: 'contract', entityId: id }),
  });
}

/** The approver sends it back: pending approval -> draft, with the reason on the timeline. */
export async function returnToDraft(ctx: TxContext, actor: Actor, id: string, reason: string): Promise<void> {
  await transition(ctx, contractLifecycle, id, 'return', {
    actor,
    change: () => ({
      set: { submittedBy: null, submittedAt: null, approvedBy: null, approvedAt: null },
      event: { type: 'returned', message: `Sent back for changes: ${reason}` },
    }),
    notify: async (row) => {
      await resolveTask(ctx, contractTask(id));
      if (!row.createdBy) return;
      await notify(
        ctx,
        { userId: row.createdBy },
        {
          title: 'Contract sent back',
          message: `${row.number}: ${reason}`,
          type: 'warning',
          link: `/contracts/${id}`,
          category: 'approvals',
          task: contractTask(id),
        },
      );
    },
    audit: () => ({ action: 'contract.return', entityType: 'contract', entityId: id, after: { reason } }),
  });
}

/** Why activation cannot go ahead yet, in the order staff would fix it; empty when it can. */
/** What activation still waits for, from the contract and the current state of its parties. */
export function blockersOf(
  row: ContractRow,
  parties: { kycStatus: string; deviceStatus: string; depositReceived: number },
): string[] {
  const blockers: string[] = [];
  if (row.status !== 'pending_approval') {
    blockers.push(
      row.status === 'draft'
        ? 'Submit the contract for approval'
        : `The contract is ${row.status.replace('_', ' ')}`,
    );
  }
  if (!row.approvedAt) blockers.push('A second person must approve the contract');
  if (parties.kycStatus !== 'verified')
    blockers.push(`The customer's KYC is not verified (${parties.kycStatus.replace('_', ' ')})`);
  if (parties.deviceStatus !== 'reserved')
    blockers.push(
      `The device is not held in stock for this contract (${parties.deviceStatus.replace('_', ' ')})`,
    );
  if (parties.depositReceived < row.deposit) {
    blockers.push(
      `The deposit of ${formatMoney(row.deposit, row.currency)} is not fully received (${formatMoney(parties.depositReceived, row.currency)} so far)`,
    );
  }
  return blockers;
}

export async function activationBlockers(executor: Executor, row: ContractRow): Promise<string[]> {
  const customer = await customerOf(executor, row.customerId);
  const { device } = await deviceOf(executor, row.deviceId);
  return blockersOf(row, {
    kycStatus: customer.kycStatus,
    deviceStatus: device.status,
    depositReceived: await depositReceived(executor, row.id),
  });
}

export interface ActivationResult {
  /** Days the first unlock token buys, when the device is controlled by tokens. */
  tokenDays: number | null;
}

/**
 * Activation (PRODUCT.md): refused with 422 and the first unmet condition (approval, verified KYC,
 * device in stock, deposit received). It starts the schedule today, hands the device over,
 * posts the sale to the ledger and tells the maker.
 */
export async function activate(
  ctx: TxContext,
  actor: Actor,
  id: string,
  issueFirstToken: (ctx: TxContext, deviceId: string, days: number, contractId: string) => Promise<void>,
): Promise<ActivationResult> {
  const { tx } = ctx;
  // What the change works out and the effects use.
  let tokenDays: number | null = null;
  let today = '';
  let firstDue = '';
  let firstInstallment = 0;
  let parties: Awaited<ReturnType<typeof deviceOf>> | undefined;
  await transition(ctx, contractLifecycle, id, 'activate', {
    actor,
    async check(row) {
      const [first] = await activationBlockers(tx, row);
      if (first) throw unprocessable(first, 'ACTIVATION_REFUSED');
    },
    async change(row) {
      const org = await organisation(ctx, tx);
      today = businessToday(ctx, org);
      // The device goes home today: the schedule starts today, on the terms the contract was made
      // and approved on (not the plan's or the model's as they are now).
      const rescheduled = today !== row.startDate ? scheduleFrom(row, today) : null;
      const firstRow = rescheduled?.rows[0];
      const lastRow = rescheduled?.rows.at(-1);
      if (rescheduled && firstRow && lastRow) {
        await tx
          .delete(contractInstallments)
          .where(
            and(
              eq(contractInstallments.contractId, id),
              eq(contractInstallments.scheduleVersion, row.scheduleVersion),
            ),
          );
        await insertInstallments(tx, id, row.scheduleVersion, rescheduled.rows);
        await addEvent(
          ctx,
          id,
          actor,
          'rescheduled',
          `Schedule dated from activation: ${today} (was ${row.startDate})`,
        );
      }
      const totals = rescheduled?.totals ?? {
        installment: row.installment,
        totalInterest: row.totalInterest,
        totalPayable: row.totalPayable,
      };
      firstDue = firstRow?.dueDate ?? row.firstDueDate;
      firstInstallment = totals.installment;
      parties = await deviceOf(tx, row.deviceId);
      const { device } = parties;
      if (device.controlKind === 'openpaygo') {
        tokenDays = Math.max(1, Math.round((Date.parse(firstDue) - Date.parse(today)) / 86_400_000));
      }
      const now = ctx.clock.now();
      return {
        set: {
          activatedBy: actor.id,
          activatedAt: now,
          startDate: today,
          firstDueDate: firstDue,
          lastDueDate: lastRow?.dueDate ?? row.lastDueDate,
          paidThroughDate: today,
          installment: totals.installment,
          totalInterest: totals.totalInterest,
          totalPayable: totals.totalPayable,
          outstandingPrincipal: row.principal,
          updatedAt: now,
        },
        figures: {
          ...CLEAR_FIGURES,
          nextDueDate: firstDue,
          outstandingTotal: totals.totalPayable,
        },
        event: {
          type: 'activated',
          message: `Activated; device ${device.serialNumber} handed over`,
          data: { tokenDays },
        },
      };
    },
    async effects(row) {
      if (!parties) throw new Error('Activation read no device');
      const { device, model } = parties;
      await assignDevice(ctx, actor, device.id, id, row.number, firstDue);
      if (tokenDays !== null) await issueFirstToken(ctx, device.id, tokenDays, id);
      await welcomeMessage(ctx, actor, row, {
        device: `${model.make} ${model.model}`,
        amount: firstInstallment,
        dueDate: firstDue,
      });
      // The sale: the customer owes the principal, the deposit held becomes part of the price.
      const lines: PostingLine[] = [
        {
          account: ACCOUNTS.loansReceivable,
          debit: row.principal,
          contractId: id,
          customerId: row.customerId,
        },
        {
          account: ACCOUNTS.customerCredit,
          debit: row.deposit,
          contractId: id,
          customerId: row.customerId,
          memo: 'deposit applied to the sale',
        },
        { account: ACCOUNTS.deviceSales, credit: row.cashPrice, contractId: id, customerId: row.customerId },
      ];
      // The unit leaves inventory at what it cost when received.
      const cost = device.costPrice ?? model.costPrice;
      if (cost) {
        lines.push(
          { account: ACCOUNTS.costOfDevices, debit: cost, contractId: id, customerId: row.customerId },
          {
            account: ACCOUNTS.inventory,
            credit: cost,
            contractId: id,
            customerId: row.customerId,
            memo: `device ${device.serialNumber}`,
          },
        );
      }
      await post(tx, actor, {
        businessDate: today,
        description: `Activation of ${row.number}`,
        sourceType: 'contract_activation',
        sourceId: id,
        currency: row.currency,
        lines,
      });
    },
    notify: async (row) => {
      await resolveTask(ctx, contractTask(id));
      if (!row.createdBy || row.createdBy === actor.id) return;
      await notify(
        ctx,
        { userId: row.createdBy },
        {
          title: 'Contract activated',
          message: `${row.number} is active`,
          type: 'success',
          link: `/contracts/${id}`,
        },
      );
    },
    audit: (row) => ({
      action: 'contract.activate',
      entityType: 'contract',
      entityId: id,
      before: { status: row.status },
      after: { status: 'active', startDate: today },
    }),
  });
  return { tokenDays };
}

/**
 * "The customer is welcomed" (issue 15 §7): the welcome message, queued through the outbox in the
 * activation's transaction, once per contract (its dedupe key), with how and when to pay.
 */
async function welcomeMessage(
  ctx: TxContext,
  actor: Actor,
  row: ContractRow,
  first: { device: string; amount: number; dueDate: string },
): Promise<void> {
  const { payBill, account } = paymentInstructions(ctx.config, row.number);
  await queueMessage(ctx, actor, {
    customerId: row.customerId,
    contractId: row.id,
    template: 'welcome',
    variables: {
      contractNumber: row.number,
      device: first.device,
      amount: messageMoney(first.amount, row.currency),
      dueDate: messageDate(first.dueDate),
      payBill,
      account,
    },
    source: { type: 'contract_activation', id: row.id },
    dedupeKey: `welcome:${row.id}`,
  });
}

/** Before activation only. The device returns to stock; a deposit received stays as customer credit. */
export async function cancel(ctx: TxContext, actor: Actor, id: string, reason: string): Promise<void> {
  await transition(ctx, contractLifecycle, id, 'cancel', {
    actor,
    async change(row) {
      // The device goes back to stock first: the timeline line says what became of the deposit.
      await releaseDevice(ctx, actor, row.deviceId, id, row.number);
      const received = await depositReceived(ctx.tx, id);
      const now = ctx.clock.now();
      return {
        set: { cancelledBy: actor.id, cancelledAt: now, cancelReason: reason, closedAt: now, updatedAt: now },
        event: {
          type: 'cancelled',
          message: received
            ? `Cancelled: ${reason}. The deposit received (${formatMoney(received, row.currency)}) is held as customer credit to refund or reuse.`
            : `Cancelled: ${reason}`,
        },
      };
    },
    notify: () => resolveTask(ctx, contractTask(id)),
    audit: (row) => ({
      action: 'contract.cancel',
      entityType: 'contract',
      entityId: id,
      before: { status: row.status },
      after: { status: 'cancelled', reason },
    }),
  });
}
