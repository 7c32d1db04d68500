import { and, eq, sql } from 'drizzle-orm';
import {
  AUTO_DEBIT_RETRY_DAYS,
  type AutoDebitSummary,
  type ContractMandates,
  type MandateCreateBody,
} from '../../../../contracts/auto-debit';
import { DEBIT_ATTEMPT_STATUSES } from '../../../../contracts/payments';
import { queryRows } from '../../../../db/client';
import { debitAttempts, debitMandates } from '../../../../db/schema';
import { addDays } from '../../../../domain';
import { type Actor, writeAudit } from '../../../audit';
import { businessToday } from '../../../business-date';
import type { AppContext, Executor, TxContext } from '../../../context';
import { conflict, notFound } from '../../../errors';
import { newId } from '../../../ids';
import { organisation } from '../../../organisation';
import { lockContract } from '../../contracts/lifecycle';
import { selectAttempts, selectMandates, selectNextDebits } from './read';

/** A mandate can be given while the contract is being made or is live, not once it is closed. */
const MANDATE_CONTRACT_STATUSES = ['draft', 'pending_approval', 'active', 'defaulted'];

/**
 * Records a mandate on a contract (the payer's consent to be debited for its instalments): one per
 * contract and method. Audited `mandate.create`.
 */
export async function createMandate(
  ctx: TxContext,
  actor: Actor,
  contractId: string,
  input: MandateCreateBody,
): Promise<string> {
  const contract = await lockContract(ctx, contractId);
  if (!MANDATE_CONTRACT_STATUSES.includes(contract.status))
    throw conflict(
      `${contract.number} is ${contract.status.replace('_', ' ')}: a mandate can be added only to an open or live contract`,
      'CONTRACT_STATE',
    );
  const [existing] = await ctx.tx
    .select({ id: debitMandates.id })
    .from(debitMandates)
    .where(and(eq(debitMandates.contractId, contractId), eq(debitMandates.method, input.method)));
  if (existing)
    throw conflict(
      `${contract.number} already has a ${input.method.replace('_', ' ')} mandate; pause or resume that one`,
    );
  const id = newId();
  const now = ctx.clock.now();
  await ctx.tx.insert(debitMandates).values({
    id,
    contractId,
    method: input.method,
    account: input.account,
    consentReference: input.consentReference,
    active: true,
    createdBy: actor.id,
    createdAt: now,
    updatedAt: now,
  });
  await writeAudit(ctx.tx, actor, {
    action: 'mandate.create',
    entityType: 'debit_mandate',
    entityId: id,
    after: {
      contractId,
      method: input.method,
      account: input.account,
      consentReference: input.consentReference,
    },
  });
  return id;
}

async function lockMandate(ctx: TxContext, id: string) {
  const [row] = await ctx.tx.select().from(debitMandates).where(eq(debitMandates.id, id)).for('update');
  if (!row) throw notFound('Mandate not found');
  return row;
}

/**
 * Pauses or resumes a mandate: a paused one gets no new attempts and its scheduled ones wait.
 * Pausing a paused one (or resuming an active one) is refused. Audited `mandate.update`.
 */
export async function setMandateActive(
  ctx: TxContext,
  actor: Actor,
  id: string,
  change: { active: true } | { active: false; reason: string },
): Promise<void> {
  const row = await lockMandate(ctx, id);
  if (row.active === change.active)
    throw conflict(change.active ? 'The mandate is already active' : 'The mandate is already paused');
  const pausedReason = change.active ? null : change.reason;
  await ctx.tx
    .update(debitMandates)
    .set({ active: change.active, pausedReason, updatedAt: ctx.clock.now() })
    .where(eq(debitMandates.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'mandate.update',
    entityType: 'debit_mandate',
    entityId: id,
    before: { active: row.active, pausedReason: row.pausedReason },
    after: { active: change.active, pausedReason },
  });
}

/** The contract page's card: its mandates, their latest 50 attempts and the next debit. */
export async function contractMandates(executor: Executor, contractId: string): Promise<ContractMandates> {
  const [mandates, attempts, next] = await Promise.all([
    selectMandates(executor, sql`debit_mandates.contract_id = ${contractId}`),
    selectAttempts(
      executor,
      sql`debit_attempts.contract_id = ${contractId}`,
      sql`debit_attempts.due_date DESC, debit_attempts.attempt DESC`,
      50,
    ),
    selectNextDebits(executor, { contractId, limit: 1 }),
  ]);
  return { mandates, attempts, next: next[0] ?? null };
}

/** How far back the monitor's success rate looks. */
export const SUMMARY_DAYS = 30;

/**
 * The monitor's figures: the success rate of attempts made in the last 30 business days, counts by
 * status, the reasons of failures in the window, the newest failures and the next attempts due.
 */
export async function autoDebitSummary(ctx: AppContext): Promise<AutoDebitSummary> {
  const org = await organisation(ctx, ctx.db);
  const today = businessToday(ctx, org);
  const since = addDays(today, -SUMMARY_DAYS);
  // An attempt made in the window: tried (not scheduled) with its scheduled date in it.
  const inWindow = sql`debit_attempts.status <> 'scheduled' AND (debit_attempts.scheduled_for AT TIME ZONE 'UTC')::date >= ${since}::date`;
  const [figures] = await queryRows<{ attempted: number; succeeded: number; collected: string | number }>(
    ctx.db,
    sql`SELECT count(*)::int AS attempted,
               (count(*) FILTER (WHERE status = 'succeeded'))::int AS succeeded,
               COALESCE(sum(amount) FILTER (WHERE status = 'succeeded'), 0) AS collected
        FROM ${debitAttempts} WHERE ${inWindow}`,
  );
  const byStatus = await queryRows<{ status: string; n: number; retries: number }>(
    ctx.db,
    sql`SELECT status, count(*)::int AS n, (count(*) FILTER (WHERE attempt > 1))::int AS retries
        FROM ${debitAttempts} GROUP BY status`,
  );
  const reasons = await queryRows<{ reason: string; n: number }>(
    ctx.db,
    sql`SELECT failure_reason AS reason, count(*)::int AS n FROM ${debitAttempts}
        WHERE ${inWindow} AND status IN ('failed', 'retrying') AND failure_reason IS NOT NULL
        GROUP BY failure_reason ORDER BY n DESC, failure_reason`,
  );
  const mandates = await queryRows<{ active: number; paused: number }>(
    ctx.db,
    sql`SELECT (count(*) FILTER (WHERE active))::int AS active, (count(*) FILTER (WHERE NOT active))::int AS paused
        FROM ${debitMandates}`,
  );
  const [recentFailures, upcoming, nextDebits] = await Promise.all([
    selectAttempts(
      ctx.db,
      sql`debit_attempts.status IN ('failed', 'retrying')`,
      sql`debit_attempts.attempted_at DESC NULLS LAST, debit_attempts.id DESC`,
      20,
    ),
    selectAttempts(
      ctx.db,
      sql`debit_attempts.status = 'scheduled'`,
      sql`debit_attempts.scheduled_for, debit_attempts.due_date, debit_attempts.id`,
      20,
    ),
    selectNextDebits(ctx.db),
  ]);
  const attempted = figures?.attempted ?? 0;
  const succeeded = figures?.succeeded ?? 0;
  const counts = Object.fromEntries(DEBIT_ATTEMPT_STATUSES.map((s) => [s, 0])) as AutoDebitSummary['counts'];
  for (const row of byStatus) counts[row.status as keyof typeof counts] = row.n;
  return {
    asOf: today,
    since,
    currency: org.currency,
    successRate: attempted ? succeeded / attempted : null,
    attempted,
    succeeded,
    collected: Number(figures?.collected ?? 0),
    counts,
    failureReasons: reasons.map((r) => ({ reason: r.reason, count: r.n })),
    recentFailures,
    upcoming,
    nextDebits,
    retriesScheduled: byStatus.find((row) => row.status === 'scheduled')?.retries ?? 0,
    mandates: { active: mandates[0]?.active ?? 0, paused: mandates[0]?.paused ?? 0 },
    retryDays: [...AUTO_DEBIT_RETRY_DAYS],
  };
}
