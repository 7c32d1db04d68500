import type { EodStep } from '../../../contracts/close-of-business';
import { OVERDUE_REMINDER_DAYS, REMINDER_LEAD_DAYS } from '../../../contracts/messages';
import type { Organisation } from '../../../contracts/profile';
import { minorUnitDigits } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessToday } from '../../business-date';
import type { TxContext } from '../../context';
import { figuresDate } from '../../organisation';
import { hashTheBookInMemory } from '../../transaction';
import { brokenPromiseMessages, checkPromises } from '../collections/promises';
import { refreshCases } from '../collections/refresh';
import {
  accrueInterest,
  chargeLateFees,
  defaultOverdue,
  liveContractUnits,
  lockCandidates,
  termValues,
} from '../contracts/close-of-business';
import { refreshDelinquencyIn } from '../contracts/delinquency';
import { reminderCandidates } from '../contracts/reminders';
import { queueLocks, recordTimeRanOut } from '../devices/commands';
import { controlledDeviceIds } from '../devices/controlled';
import { batchEntryWrites, postMany } from '../ledger/bulk';
import { ACCOUNTS } from '../ledger/service';
import { queueMessagesFrom } from '../messages/outbox';
import { lastCompleted } from './read';
import { writeSnapshot } from './snapshot';

/** What a step sees: the date it closes, the organisation, and who the close acts as. */
export interface StepInput {
  date: string;
  org: Organisation;
  actor: Actor;
}

export interface StepResult {
  counts: Record<string, number>;
  /** Why the step did nothing by design. */
  note?: string;
}

type Step = (ctx: TxContext, input: StepInput) => Promise<StepResult>;

/**
 * The eight steps of PRODUCT.md §2 "Close of business", in their order. Each runs set-based in
 * its own transaction, which also records it done (run.ts), so a re-run skips it.
 */
export const STEPS: Record<EodStep, Step> = {
  // Once the day's start has brought the figures to the date, every writer since (payments,
  // reversals, activations) kept its contract's figures for it: nothing is left to change.
  delinquency: async (ctx, { date }) =>
    (await figuresDate(ctx)) === date
      ? { counts: { changed: 0 }, note: 'the figures were brought to this date at its start' }
      : { counts: { changed: await refreshDelinquencyIn(ctx, date, { moving: true }) } },

  late_fees: async (ctx, { date, org, actor }) => {
    await hashTheBookInMemory(ctx);
    // The date's fees are one journal entry, a receivable line per contract against the income,
    // written by the charging statement from its own fees (decisions 032 and 034).
    const since = await lastCompleted(ctx.tx, 'late_fees', date);
    const charged = await chargeLateFees(ctx, actor, date, since, (perContract) =>
      batchEntryWrites(actor, 'late_fee_ledger', {
        source: perContract,
        debit: ACCOUNTS.penaltiesReceivable,
        credit: ACCOUNTS.penaltyIncome,
        businessDate: date,
        description: `Late fees charged at the close of business of ${date}`,
        sourceType: 'late_fee',
        sourceId: date,
        currency: org.currency,
      }),
    );
    return { counts: { contracts: charged.contracts, amount: charged.amount } };
  },

  device_locks: async (ctx, { date, actor }) => {
    const { candidates, queued } = await queueLocks(
      ctx,
      actor,
      lockCandidates(date),
      `Days past due beyond the plan's lock-after days`,
      { type: 'close_of_business', id: date },
    );
    // OpenPAYGO units take no command: those whose time ran out are recorded locked (decision 050).
    const timeRanOut = await recordTimeRanOut(ctx, actor, date, liveContractUnits());
    return { counts: { overdueBeyondLockAfter: candidates, locksQueued: queued, timeRanOut } };
  },

  defaults: async (ctx, { date, actor }) => {
    await hashTheBookInMemory(ctx);
    const moved = await defaultOverdue(ctx, actor, date);
    // One audit row for the step's moves, written last (it takes the chain lock): the contracts
    // are named in it and each has its timeline line.
    if (moved.length)
      await writeAudit(ctx.tx, actor, {
        action: 'contract.default',
        entityType: 'eod_run',
        entityId: date,
        after: { businessDate: date, contracts: moved },
      });
    return { counts: { defaulted: moved.length } };
  },

  promises: async (ctx, { date, org, actor }) => {
    const checked = await checkPromises(ctx, actor, date);
    const broken = checked.filter((promise) => promise.state === 'broken');
    // The customer is told of a broken promise through the outbox, in this transaction (decision 027).
    const told = broken.length
      ? await queueMessagesFrom(
          ctx,
          actor,
          brokenPromiseMessages(
            broken.map((promise) => promise.id),
            minorUnitDigits(org.currency),
          ),
          { type: 'close_of_business', id: date },
        )
      : {};
    // The queue is scored for the date after the promises moved (broken promises rank higher):
    // the cases the day's start left current are skipped (all are looked at on a catch-up date).
    const queue = await refreshCases(ctx, date, 'changed');
    return {
      counts: {
        checked: checked.length,
        kept: checked.filter((promise) => promise.state === 'kept').length,
        partlyKept: checked.filter((promise) => promise.state === 'partly_kept').length,
        broken: broken.length,
        customersMessaged: told.broken_promise ?? 0,
        casesScored: queue.cases,
      },
    };
  },

  // Reminders before due, overdue on days 1, 3 and 7, and the lock warning the day before a
  // controlled unit would lock (decision 027): one INSERT … SELECT into the outbox, keyed per
  // contract, kind and date so a re-run queues nothing. Consent and quiet hours are the sender's.
  reminders: async (ctx, { date, org, actor }) => {
    const queued = await queueMessagesFrom(
      ctx,
      actor,
      reminderCandidates({
        date,
        leadDays: REMINDER_LEAD_DAYS,
        overdueDays: OVERDUE_REMINDER_DAYS,
        digits: minorUnitDigits(org.currency),
        controlledDevices: controlledDeviceIds(),
        lockAfterDays: await termValues(ctx.tx, 'lockAfterDays'),
      }),
      { type: 'close_of_business', id: date },
    );
    const overdue = OVERDUE_REMINDER_DAYS.reduce((n, day) => n + (queued[`overdue_day_${day}`] ?? 0), 0);
    return {
      counts: {
        beforeDue: queued.reminder_before_due ?? 0,
        overdue,
        lockWarnings: queued.lock_warning ?? 0,
      },
    };
  },

  interest_accrual: async (ctx, { date, org, actor }): Promise<StepResult> => {
    const from = org.interestAccrualFrom;
    if (!from || from > date)
      return { counts: {}, note: 'interest is income when paid: accrual is off (organisation setting)' };
    const accrued = await accrueInterest(ctx, date, from);
    if (accrued.amount !== 0) {
      const [debit, credit] = accrued.amount > 0 ? [accrued.amount, 0] : [0, -accrued.amount];
      await postMany(ctx.tx, actor, [
        {
          businessDate: date,
          description: `Interest accrued at the close of business of ${date}`,
          sourceType: 'interest_accrual',
          sourceId: date,
          currency: org.currency,
          lines: [
            { account: ACCOUNTS.interestReceivable, debit, credit },
            { account: ACCOUNTS.interestIncome, debit: credit, credit: debit },
          ],
        },
      ]);
    }
    return { counts: { contracts: accrued.contracts, amount: accrued.amount } };
  },

  // A catch-up's earlier dates are computed as of their date; the business date's own figures are
  // those just stored (decision 034).
  snapshot: async (ctx, { date, org }) =>
    writeSnapshot(ctx, org, date, {
      current: true,
      stored: date === businessToday(ctx, org),
      replace: true,
    }).then((s) => ({ counts: s })),
};
