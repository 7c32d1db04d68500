import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import type { EodRun, EodStep, EodTrigger } from '../../../contracts/close-of-business';
import { ERROR_CODES } from '../../../contracts/errors';
import type { Organisation } from '../../../contracts/profile';
import { eodRuns, eodSteps } from '../../../db/schema';
import { addDays } from '../../../domain';
import type { Actor } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext, TxContext } from '../../context';
import { AppError } from '../../errors';
import { lockOrganisation, organisation, saveLastClosedDate } from '../../organisation';
import { withTransaction } from '../../transaction';
import { refreshCases } from '../collections/refresh';
import { refreshDelinquencyIn, takeFiguresLock } from '../contracts/delinquency';
import { foldPaymentCounts } from '../payments/counts';
import { runsOf } from './read';
import { STEPS, type StepInput } from './steps';

export interface CloseOptions {
  trigger: EodTrigger;
  actor: Actor;
  /**
   * Where catch-up starts when no date was ever closed (the business date a move started from);
   * otherwise the date after the last closed one. Default: the date asked for alone.
   */
  firstDate?: string;
}

export interface CloseResult {
  businessDate: string;
  lastClosedDate: string | null;
  runs: EodRun[];
}

const refused = (message: string) =>
  new AppError(422, ERROR_CODES.BUSINESS_DATE_REFUSED, message, [{ field: 'businessDate', message }]);

/**
 * Closes the business day `date` (PRODUCT.md §2 "Close of business"), first every date not closed
 * before it, oldest first: from the day after the last closed date (or `firstDate`). A date after
 * the business date is refused (422). A date closed already changes nothing and answers its run; a
 * failed date is resumed from its first step not done, and the dates after it wait. Afterwards
 * the stored arrears figures are refreshed for the business date, when the close ended before it.
 * Each of its transactions takes the book's figures lock first (`takeFiguresLock`), on every
 * instance: two instances closing at once take the steps in turn, the second finding each step
 * done by the first; an arrears refresh waits for the step under way.
 */
export async function closeBusinessDate(
  ctx: AppContext,
  date: string,
  options: CloseOptions,
): Promise<CloseResult> {
  // As stored now, not as cached: another instance may have closed dates a moment ago.
  const org = await withTransaction(ctx, (tx) => lockOrganisation(tx));
  const today = businessToday(ctx, org);
  if (date > today) throw refused(`The close of business can run up to the business date, ${today}`);
  // A date closed already (or before close of business existed) is answered, never run again.
  const start = org.lastClosedDate ? addDays(org.lastClosedDate, 1) : (options.firstDate ?? date);
  const dates: string[] = [];
  for (let day = start; day <= date; day = addDays(day, 1)) dates.push(day);
  for (const day of dates) {
    const ok = await closeOneDate(ctx, org, day, options);
    if (!ok) break;
  }
  const after = await withTransaction(ctx, async (tx) => {
    const settled = await organisation(tx, tx.tx);
    // The figures lists show are today's, not the last closed date's.
    if (settled.lastClosedDate && settled.lastClosedDate < today) {
      await takeFiguresLock(tx);
      // Only the contracts whose figures can move with the date (in arrears, or due by today), as
      // the close's own first step: the others' days past due stay 0 and their next due stands.
      await refreshDelinquencyIn(tx, today, { moving: true });
      // And the collections queue scored on them (decision 030).
      await refreshCases(tx, today);
    }
    return settled;
  });
  const runs = await runsOf(ctx.db, dates.length ? dates : [date]);
  return { businessDate: date, lastClosedDate: after.lastClosedDate, runs };
}

/** One date: its run row claimed, each step not done run in its own transaction, then closed. Answers whether it completed. */
async function closeOneDate(
  ctx: AppContext,
  org: Organisation,
  date: string,
  options: CloseOptions,
): Promise<boolean> {
  const started = await withTransaction(ctx, async (tx) => {
    await takeFiguresLock(tx);
    const now = ctx.clock.now();
    const [run] = await tx.tx
      .insert(eodRuns)
      .values({
        businessDate: date,
        status: 'running',
        trigger: options.trigger,
        requestedBy: options.actor.id,
        startedAt: now,
      })
      .onConflictDoUpdate({
        target: eodRuns.businessDate,
        set: { status: 'running', attempts: sql`${eodRuns.attempts} + 1`, error: null, finishedAt: null },
        setWhere: sql`${eodRuns.status} = 'failed'`,
      })
      .returning({ status: eodRuns.status });
    // No row back: the date is completed, or running (another instance; its steps are skipped here).
    if (run) return true;
    const [existing] = await tx.tx
      .select({ status: eodRuns.status })
      .from(eodRuns)
      .where(eq(eodRuns.businessDate, date));
    return existing?.status !== 'completed';
  });
  if (!started) return true;
  const began = performance.now();
  // The run's time: this attempt's, from here, added to the earlier attempts' (decision 056).
  const attemptMs = () =>
    sql`coalesce(${eodRuns.elapsedMs}, 0) + ${Math.round(performance.now() - began)}::int`;
  for (const stage of STAGES) {
    const failure = await runStage(ctx, { date, org, actor: options.actor }, stage);
    if (failure) {
      await withTransaction(ctx, async (tx) => {
        await tx.tx
          .update(eodRuns)
          .set({ status: 'failed', error: failure, finishedAt: ctx.clock.now(), elapsedMs: attemptMs() })
          .where(eq(eodRuns.businessDate, date));
      });
      return false;
    }
  }
  await withTransaction(ctx, async (tx) => {
    await takeFiguresLock(tx);
    await lockOrganisation(tx);
    await tx.tx
      .update(eodRuns)
      .set({ status: 'completed', finishedAt: ctx.clock.now(), error: null, elapsedMs: attemptMs() })
      .where(and(eq(eodRuns.businessDate, date), sql`${eodRuns.status} <> 'completed'`));
    await saveLastClosedDate(tx, date);
    // Housekeeping, not a step: the payments' counts of the sessions since, gathered in one row
    // per pair (decision 045). It skips the rows of sessions posting now, so it waits on none.
    await foldPaymentCounts(tx.tx);
  });
  return true;
}

/**
 * The steps (EOD_STEPS, in their order) as stages of branches, each branch a chain of steps run in
 * order (decision 056). A stage starts once the one before it has ended. Its branches write
 * different rows and read nothing the other writes: the late fees (figures, instalments, ledger)
 * beside the locks and the defaults (units, commands, contracts' status), which read only the
 * arrears date step 1 stored and all count a defaulted contract as live; then the queue (promises
 * and cases) beside the outbox's reminders and the interest accruals, and beside the snapshot,
 * which reads the book those two stages left (contracts, figures, schedules, payments, units) and
 * none of what the queue, the outbox or the accruals write (decision 062).
 */
export const STAGES: readonly (readonly EodStep[])[][] = [
  [['delinquency']],
  [['late_fees'], ['device_locks', 'defaults']],
  [['promises'], ['reminders', 'interest_accrual'], ['snapshot']],
];

/**
 * One stage: on PostgreSQL, with a connection for each branch beside this one, its branches run
 * side by side, each step in its own transaction, while a transaction of the stage holds the
 * book's figures lock for them all (every other bulk writer of the figures, a second instance's
 * close among them, waits for the stage as it waited for one step). Otherwise (PGlite is one
 * connection) the steps run one after the other, each taking the lock itself. A branch stops at
 * its first failing step and the others finish theirs. Answers the first failure in the steps'
 * order, as "step: error", or null.
 */
async function runStage(
  ctx: AppContext,
  input: StepInput,
  branches: readonly (readonly EodStep[])[],
): Promise<string | null> {
  const runBranch = async (branch: readonly EodStep[], lockHeld: boolean) => {
    for (const step of branch) {
      const failure = await runStep(ctx, input, step, lockHeld);
      if (failure) return `${step}: ${failure}`;
    }
    return null;
  };
  if (branches.length === 1 || ctx.database.connections <= branches.length) {
    for (const branch of branches) {
      const failure = await runBranch(branch, false);
      if (failure) return failure;
    }
    return null;
  }
  const failures = await withTransaction(ctx, async (tx) => {
    await takeFiguresLock(tx);
    // Every branch settles before the stage's transaction ends (and the lock with it).
    const settled = await Promise.allSettled(branches.map((branch) => runBranch(branch, true)));
    const thrown = settled.find((result) => result.status === 'rejected');
    if (thrown) throw thrown.reason;
    return settled.map((result) => (result.status === 'fulfilled' ? result.value : null));
  });
  return failures.find((failure) => failure !== null) ?? null;
}

/**
 * Runs one step unless done, recording it with its work; answers the error text when it failed.
 * `lockHeld`: the stage's transaction holds the figures lock for this one.
 */
async function runStep(
  ctx: AppContext,
  input: StepInput,
  step: EodStep,
  lockHeld: boolean,
): Promise<string | null> {
  const { date } = input;
  const startedAt = ctx.clock.now();
  const began = performance.now();
  try {
    await withTransaction(ctx, async (tx) => {
      if (!lockHeld) await takeFiguresLock(tx);
      const [done] = await tx.tx
        .select({ status: eodSteps.status })
        .from(eodSteps)
        .where(
          and(eq(eodSteps.businessDate, date), eq(eodSteps.step, step), eq(eodSteps.status, 'completed')),
        );
      if (done) return;
      const result = await STEPS[step](tx, input);
      await recordStep(tx, date, step, {
        status: 'completed',
        counts: result.counts,
        note: result.note ?? null,
        error: null,
        startedAt,
        durationMs: Math.round(performance.now() - began),
      });
    });
    return null;
  } catch (error) {
    const message = errorText(error);
    ctx.log.error({ err: error, date, step }, 'close of business step failed');
    await withTransaction(ctx, (tx) =>
      recordStep(tx, date, step, {
        status: 'failed',
        counts: {},
        note: null,
        error: message,
        startedAt,
        durationMs: Math.round(performance.now() - began),
      }),
    );
    return message;
  }
}

/** The root cause's words: a failed statement's own message, not the query that carried it. */
function errorText(error: unknown): string {
  let cause = error;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return cause instanceof Error ? cause.message : String(cause);
}

async function recordStep(
  ctx: TxContext,
  date: string,
  step: EodStep,
  record: Pick<
    typeof eodSteps.$inferInsert,
    'status' | 'counts' | 'note' | 'error' | 'startedAt' | 'durationMs'
  >,
): Promise<void> {
  const values = { ...record, finishedAt: ctx.clock.now() };
  await ctx.tx
    .insert(eodSteps)
    .values({ businessDate: date, step, ...values })
    .onConflictDoUpdate({ target: [eodSteps.businessDate, eodSteps.step], set: values });
}
