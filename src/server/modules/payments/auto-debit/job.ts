import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { AUTO_DEBIT_MAX_ATTEMPTS, AUTO_DEBIT_RETRY_DAYS } from '../../../../contracts/auto-debit';
import { queryRows } from '../../../../db/client';
import { debitAttempts, debitMandates } from '../../../../db/schema';
import { addDays } from '../../../../domain';
import { SYSTEM_ACTOR, writeAudit } from '../../../audit';
import { businessToday } from '../../../business-date';
import type { AppContext, TxContext } from '../../../context';
import { newId } from '../../../ids';
import { defineJob } from '../../../jobs/definition';
import { organisation } from '../../../organisation';
import { withTransaction } from '../../../transaction';
import { unpaidDues } from '../../contracts/dues';
import { lockContract } from '../../contracts/lifecycle';
import { postPayment } from '../posting';
import { type DebitProvider, simulatorProvider } from './provider';
import { debitingMandates } from './read';

/**
 * Auto-debit runs (PRODUCT.md section 2, "Auto-debit"; decision 021). Each run, for the business
 * date: schedules attempt 1 for every unpaid instalment due on or before it on a contract with an
 * active mandate, then makes every attempt scheduled on or before it, one transaction each. A
 * success posts the payment (`postPayment`, method `auto_debit`); a retryable failure schedules
 * the next attempt per AUTO_DEBIT_RETRY_DAYS; the last failure, or a permanent one, is final, and a
 * permanent one pauses the mandate. A run is idempotent: attempts already made are not made again.
 */

/** The scheduled date is stored as UTC midnight of the business date it is for. */
export const scheduledAt = (date: string) => new Date(`${date}T00:00:00.000Z`);
const scheduledDate = sql`(${debitAttempts.scheduledFor} AT TIME ZONE 'UTC')::date`;

export interface AutoDebitRun {
  /** New attempts scheduled (first attempts for newly due instalments). */
  scheduled: number;
  succeeded: number;
  retrying: number;
  failed: number;
  /** Attempts dropped: the instalment was paid another way before its turn. */
  dropped: number;
  /** Attempts that hit an error of ours (logged; the run then fails and is retried). */
  errors: number;
}

type Outcome = 'succeeded' | 'retrying' | 'failed' | 'dropped' | 'waiting';

/** The provider the app runs with: the simulator at AUTO_DEBIT_FAILURE_RATE. */
export function configuredProvider(ctx: AppContext): DebitProvider {
  return simulatorProvider({ failureRate: ctx.config.AUTO_DEBIT_FAILURE_RATE });
}

export async function runAutoDebit(
  ctx: AppContext,
  provider: DebitProvider = configuredProvider(ctx),
): Promise<AutoDebitRun> {
  const org = await organisation(ctx, ctx.db);
  const today = businessToday(ctx, org);
  const run: AutoDebitRun = { scheduled: 0, succeeded: 0, retrying: 0, failed: 0, dropped: 0, errors: 0 };
  run.scheduled = await withTransaction(ctx, (tx) => scheduleAttempts(tx, today));
  const due = await ctx.db
    .select({ id: debitAttempts.id })
    .from(debitAttempts)
    .innerJoin(debitMandates, eq(debitMandates.id, debitAttempts.mandateId))
    .where(
      and(
        eq(debitAttempts.status, 'scheduled'),
        eq(debitMandates.active, true),
        sql`${scheduledDate} <= ${today}::date`,
      ),
    )
    .orderBy(debitAttempts.scheduledFor, debitAttempts.dueDate, debitAttempts.id);
  let firstError: unknown;
  for (const { id } of due) {
    try {
      const outcome = await withTransaction(ctx, (tx) => makeAttempt(tx, provider, id, today));
      if (outcome !== 'waiting') run[outcome] += 1;
    } catch (error) {
      run.errors += 1;
      firstError ??= error;
      ctx.log.error({ err: error, attemptId: id }, 'auto-debit attempt failed');
    }
  }
  if (firstError) throw firstError;
  return run;
}

/**
 * Attempt 1 for each unpaid instalment due on or before `today` on a contract with an active
 * mandate (the oldest active mandate when it has several), unless the instalment already has
 * attempts (under any mandate). Returns how many were scheduled.
 */
export async function scheduleAttempts(ctx: TxContext, today: string): Promise<number> {
  const mandates = await queryRows<{ id: string; contract_id: string }>(ctx.tx, debitingMandates);
  if (!mandates.length) return 0;
  const mandateOf = new Map(mandates.map((m) => [m.contract_id, m.id]));
  const dues = await unpaidDues(ctx.tx, [...mandateOf.keys()], today);
  if (!dues.length) return 0;
  const existing = await ctx.tx
    .selectDistinct({ contractId: debitAttempts.contractId, dueDate: debitAttempts.dueDate })
    .from(debitAttempts)
    .where(inArray(debitAttempts.contractId, [...new Set(dues.map((d) => d.contractId))]));
  const have = new Set(existing.map((e) => `${e.contractId}|${e.dueDate}`));
  const rows = dues
    .filter((d) => !have.has(`${d.contractId}|${d.dueDate}`))
    .map((d) => ({
      id: newId(),
      mandateId: mandateOf.get(d.contractId) as string,
      contractId: d.contractId,
      dueDate: d.dueDate,
      amount: d.amount,
      attempt: 1,
      status: 'scheduled' as const,
      scheduledFor: scheduledAt(d.dueDate),
    }));
  if (!rows.length) return 0;
  const inserted = await ctx.tx
    .insert(debitAttempts)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: debitAttempts.id });
  return inserted.length;
}

/** The reference we send the provider: one per contract, instalment and attempt. */
export const attemptReference = (contractNumber: string, dueDate: string, attempt: number) =>
  `AD-${contractNumber}-${dueDate.replaceAll('-', '')}-${attempt}`;

/** Makes one scheduled attempt, in the caller's transaction; nothing if it is no longer scheduled. */
async function makeAttempt(
  ctx: TxContext,
  provider: DebitProvider,
  id: string,
  today: string,
): Promise<Outcome> {
  const [row] = await ctx.tx.select().from(debitAttempts).where(eq(debitAttempts.id, id)).for('update');
  if (row?.status !== 'scheduled') return 'waiting';
  const [mandate] = await ctx.tx
    .select()
    .from(debitMandates)
    .where(eq(debitMandates.id, row.mandateId))
    .for('update');
  if (!mandate?.active) return 'waiting';
  // Payments on one contract serialise on its row: what is owed is read under the lock.
  const contract = await lockContract(ctx, row.contractId);
  const owed = (await unpaidDues(ctx.tx, [row.contractId], today)).find((d) => d.dueDate === row.dueDate);
  if (!owed) {
    // Paid another way (or the contract closed) before its turn: nothing to collect.
    await ctx.tx.delete(debitAttempts).where(eq(debitAttempts.id, id));
    return 'dropped';
  }
  const now = ctx.clock.now();
  const reference = attemptReference(contract.number, row.dueDate, row.attempt);
  const result = await provider.debit({
    method: mandate.method,
    account: mandate.account,
    amount: owed.amount,
    currency: owed.currency,
    reference,
  });
  if (result.ok) {
    const posted = await postPayment(ctx, SYSTEM_ACTOR, {
      contractId: row.contractId,
      amount: owed.amount,
      method: 'auto_debit',
      provider: provider.name,
      reference: result.providerReference,
      payload: { attemptId: id, mandateId: mandate.id, reference, attempt: row.attempt },
    });
    await ctx.tx
      .update(debitAttempts)
      .set({
        status: 'succeeded',
        amount: owed.amount,
        attemptedAt: now,
        providerReference: result.providerReference,
        paymentId: posted.paymentId,
      })
      .where(eq(debitAttempts.id, id));
    return 'succeeded';
  }
  const retry = result.retryable && row.attempt < AUTO_DEBIT_MAX_ATTEMPTS;
  await ctx.tx
    .update(debitAttempts)
    .set({
      status: retry ? 'retrying' : 'failed',
      amount: owed.amount,
      attemptedAt: now,
      failureReason: result.reason,
    })
    .where(eq(debitAttempts.id, id));
  if (retry) {
    const days = AUTO_DEBIT_RETRY_DAYS[row.attempt - 1] ?? AUTO_DEBIT_RETRY_DAYS.at(-1) ?? 1;
    await ctx.tx
      .insert(debitAttempts)
      .values({
        id: newId(),
        mandateId: mandate.id,
        contractId: row.contractId,
        dueDate: row.dueDate,
        amount: owed.amount,
        attempt: row.attempt + 1,
        status: 'scheduled',
        scheduledFor: scheduledAt(addDays(today, days)),
      })
      .onConflictDoNothing();
    return 'retrying';
  }
  if (!result.retryable) {
    // A refusal that waiting will not cure: no more attempts until finance looks at it.
    const pausedReason = `Paused after the provider refused a debit: ${result.reason}`;
    await ctx.tx
      .update(debitMandates)
      .set({ active: false, pausedReason, updatedAt: now })
      .where(eq(debitMandates.id, mandate.id));
    await writeAudit(ctx.tx, SYSTEM_ACTOR, {
      action: 'mandate.update',
      entityType: 'debit_mandate',
      entityId: mandate.id,
      before: { active: true, pausedReason: mandate.pausedReason },
      after: { active: false, pausedReason, attemptId: id },
    });
  }
  return 'failed';
}

/**
 * Hourly (at 20 past, in the organisation's time zone): the first run of a business day makes its
 * attempts; the others find little to do. One run at a time.
 */
export const autoDebitJob = defineJob({
  name: 'payments.auto-debit',
  description: 'Schedules auto-debit attempts for due instalments and makes the attempts due today',
  payload: z.object({}),
  schedule: { cron: '20 * * * *' },
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireInSeconds: 30 * 60,
  singletonKey: 'payments.auto-debit',
  run: async (ctx) => ({ ...(await runAutoDebit(ctx)) }),
});
