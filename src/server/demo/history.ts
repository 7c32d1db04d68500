import { sql } from 'drizzle-orm';
import type { ContactOutcome } from '../../contracts/collections';
import { queryRows } from '../../db/client';
import { addDays, daysBetween } from '../../domain';
import { type Actor, SYSTEM_ACTOR } from '../audit';
import { businessDateOf } from '../business-date';
import type { AppContext } from '../context';
import { startOfDayIn } from '../dates';
import { closeBusinessDate } from '../modules/close-of-business/run';
import { backfillSnapshots } from '../modules/close-of-business/snapshot';
import { logAction } from '../modules/collections/actions';
import { autoAssign } from '../modules/collections/assign';
import { saveCollector } from '../modules/collections/collectors';
import { pastDueAtLeast, pastDueMoreThan } from '../modules/contracts/figures';
import { deliverDueCommands } from '../modules/devices/control/delivery';
import { openPaygoProvider } from '../modules/devices/control/openpaygo';
import { simulatorProvider } from '../modules/devices/control/provider';
import { runAutoDebit } from '../modules/payments/auto-debit/job';
import {
  type DebitProvider,
  simulatorProvider as debitSimulator,
} from '../modules/payments/auto-debit/provider';
import { createMandate } from '../modules/payments/auto-debit/service';
import { decideRepossession, recoverRepossession, requestRepossession } from '../modules/recoveries/service';
import { organisation } from '../organisation';
import { withTransaction } from '../transaction';
import { type PlannedDemoPayment, postPlannedPayment } from './payments';
import type { Random } from './random';

/**
 * The demo book lived day by day (issue 14 §7), so it opens as a lender's book a year old does:
 * each business date, the collector works the top of the queue in the morning, the auto-debit
 * run makes the day's debits (for its last two months), the day's payments are posted, the close
 * of business runs that night through the same code as the scheduled job (arrears, late fees,
 * lock warnings and locks, defaults, promises checked, reminders, the day's snapshot) and the
 * device commands it queued are delivered through the simulator. What comes out is aged by the
 * system itself: buckets, defaulted contracts, locked and unlocked units, kept and broken
 * promises, a year of daily snapshots.
 */
export interface DemoStaff {
  agent: Actor;
  collector: Actor;
  manager: Actor;
  finance: Actor;
}

export interface LivedHistory {
  payments: number;
  lastPaymentId: string | null;
  closedDates: number;
  actions: number;
  /** Units brought back from long-defaulted contracts, their balances written off. */
  recovered: number;
}

/** Cases the collector works each morning, and how long a worked case rests before the next contact. */
const CASES_A_DAY = 4;
const REST_DAYS = 5;
/** How long after its default a contract's unit is brought back, and how many the field team brings a day. */
const RECOVER_AFTER_DAYS = 30;
const RECOVERIES_A_DAY = 2;
/**
 * Auto-debit came to the lender two months before the book was built: this many customers who
 * pay on time gave an M-Pesa mandate then, and their instalments are debited from that day on
 * instead of paid by hand. A few debits fail and are retried, and one is refused for good, which
 * pauses its mandate (`demoDebitProvider`), so /admin/auto-debit opens with a history as a
 * lender's does.
 */
const MANDATES = 12;
const MANDATES_DAYS_AGO = 60;
const DEBIT_FAILURE_RATE = 0.15;

export async function liveDemoHistory(
  ctx: AppContext,
  staff: DemoStaff,
  planned: readonly PlannedDemoPayment[],
  random: Random,
  options: { from: string; stop: () => boolean },
): Promise<LivedHistory | null> {
  const org = await organisation(ctx, ctx.db);
  const dateOf = (at: Date) => businessDateOf(at, org);
  // A moment of a business date at a local hour (the calendar date is the business date less its offset).
  const atHour = (date: string, hour: number) =>
    new Date(startOfDayIn(addDays(date, -org.businessDateOffset), org.timeZone) + hour * 3_600_000);
  const clockAt = (at: Date): AppContext => ({ ...ctx, clock: { now: () => at } });
  const yesterday = addDays(dateOf(ctx.clock.now()), -1);

  await withTransaction(ctx, (tx) =>
    saveCollector(tx, staff.manager, staff.collector.id as string, {
      regions: [],
      maxOpenCases: 60,
      active: true,
    }),
  );
  const mandateDate = addDays(yesterday, -MANDATES_DAYS_AGO);
  const mandated = mandateDate > options.from ? await mandateCandidates(ctx, planned, mandateDate) : [];
  const debited = new Set(mandated.map((m) => m.contractId));
  const byDate = new Map<string, PlannedDemoPayment[]>();
  for (const payment of [...planned].sort((a, b) => a.when.getTime() - b.when.getTime())) {
    const date = dateOf(payment.when);
    // From its mandate on, a debited contract's instalments are collected by the debits.
    if (debited.has(payment.contractId) && date >= mandateDate) continue;
    byDate.set(date, [...(byDate.get(date) ?? []), payment]);
  }
  let debits: DebitProvider | null = null;
  const worked = new Map<string, string>();
  const sequence = { n: 0, next: () => ++sequence.n };
  const lived: LivedHistory = { payments: 0, lastPaymentId: null, closedDates: 0, actions: 0, recovered: 0 };
  const providers = {
    // A flaky network to the units, as in the field: a few deliveries fail and are retried.
    lock: simulatorProvider({ latencyMs: 0, failureRate: 0.05, random: () => random.next() }),
  };

  for (let date = options.from; date <= yesterday; date = addDays(date, 1)) {
    if (options.stop()) return null;
    lived.actions += await workTheQueue(clockAt(atHour(date, 9)), staff, date, byDate, worked, random);
    lived.recovered += await recoverLongDefaulted(date, (hour) => clockAt(atHour(date, hour)), staff, random);
    if (date === mandateDate) {
      await enrolMandates(clockAt(atHour(date, 8)), staff, mandated);
      debits = demoDebitProvider(mandated.map((m) => m.phone));
    }
    if (debits) await runAutoDebit(clockAt(atHour(date, 8.5)), debits);
    for (const payment of byDate.get(date) ?? []) {
      const id = await postPlannedPayment(ctx, staff, payment, sequence);
      if (id) {
        lived.payments += 1;
        lived.lastPaymentId = id;
      }
    }
    const night = clockAt(atHour(date, 23));
    await closeBusinessDate(night, date, { trigger: 'schedule', actor: SYSTEM_ACTOR, firstDate: date });
    lived.closedDates += 1;
    const late = clockAt(atHour(date, 23.5));
    await deliverDueCommands(late, { providers: { ...providers, openpaygo: openPaygoProvider(late) } });
  }
  // The year before the first contract, for trend charts that look back a full year.
  const yearAgo = addDays(yesterday, -365);
  if (yearAgo < options.from)
    await withTransaction(ctx, (tx) => backfillSnapshots(tx, org, yearAgo, addDays(options.from, -1)));
  await repossessOne(yesterday, clockAt(atHour(yesterday, 10)), clockAt(atHour(yesterday, 15)), staff);
  return lived;
}

interface MandateCandidate {
  contractId: string;
  /** The customer's phone: the M-Pesa account debited. */
  phone: string;
}

/**
 * The contracts whose customers give a mandate on `date`: live then and for a month after the
 * book is built, paying weekly or monthly on time or early (their debits then succeed as their
 * payments did), the first few by contract number, with their customers' phones.
 */
async function mandateCandidates(
  ctx: AppContext,
  planned: readonly PlannedDemoPayment[],
  date: string,
): Promise<MandateCandidate[]> {
  const punctual = [
    ...new Set(
      planned.filter((p) => p.profile === 'on_time' || p.profile === 'early').map((p) => p.contractId),
    ),
  ];
  if (!punctual.length) return [];
  return queryRows<MandateCandidate>(
    ctx.db,
    sql`SELECT c.id AS "contractId", u.phone FROM contracts c JOIN customers u ON u.id = c.customer_id
        WHERE c.id = ANY(${sql.param(punctual)}::text[]) AND c.status = 'active'
          AND c.frequency IN ('weekly', 'monthly')
          AND c.start_date < ${date}::date - 30 AND c.last_due_date > ${date}::date + ${MANDATES_DAYS_AGO + 30}::int
        ORDER BY c.number LIMIT ${MANDATES}`,
  );
}

/** Finance records each customer's M-Pesa mandate, with the consent reference they signed. */
async function enrolMandates(
  ctx: AppContext,
  staff: DemoStaff,
  mandated: readonly MandateCandidate[],
): Promise<void> {
  for (const [k, { contractId, phone }] of mandated.entries())
    await withTransaction(ctx, (tx) =>
      createMandate(tx, staff.finance, contractId, {
        method: 'mobile_money',
        account: phone,
        consentReference: `CONSENT-${String(k + 1).padStart(4, '0')}`,
      }),
    );
}

/**
 * The simulator with a few retryable failures (a short balance, a timeout) drawn from each
 * debit's reference, and two stories the monitor always shows, whatever day the book is built:
 * the first customer is short of funds at their first debit (retried the next day), and one
 * customer closes their M-Pesa account after their first debit (the next is refused for good and
 * the mandate pauses).
 */
function demoDebitProvider(accounts: readonly string[]): DebitProvider {
  const simulator = debitSimulator({ failureRate: DEBIT_FAILURE_RATE, permanentShare: 0 });
  const [short] = accounts;
  const closed = accounts[Math.floor(accounts.length / 2)];
  const seen = new Map<string, number>();
  return {
    name: simulator.name,
    async debit(request) {
      const n = (seen.get(request.account) ?? 0) + 1;
      seen.set(request.account, n);
      if (request.account === short && n === 1)
        return { ok: false, reason: 'insufficient funds', retryable: true };
      if (request.account === closed && n > 1 && accounts.length > 1)
        return { ok: false, reason: 'account closed', retryable: false };
      return simulator.debit(request);
    },
  };
}

/**
 * The collector's morning: the cases round-robin assigned, then the highest scored not worked in
 * the last few days. A customer who will pay within the week says so and promises that payment
 * (kept, if they do); others promise and do not pay (broken at that night's close), do not
 * answer, or get a message or a visit.
 */
async function workTheQueue(
  ctx: AppContext,
  staff: DemoStaff,
  date: string,
  byDate: ReadonlyMap<string, PlannedDemoPayment[]>,
  worked: Map<string, string>,
  random: Random,
): Promise<number> {
  await withTransaction(ctx, (tx) => autoAssign(tx, staff.manager));
  const cases = await queryRows<{ contract_id: string; overdue: string }>(
    ctx.db,
    sql`SELECT k.contract_id, k.amount_overdue::text AS overdue
        FROM collection_cases k JOIN contracts c ON c.id = k.contract_id
        WHERE k.in_queue AND k.collector_id = ${staff.collector.id} AND c.status = 'active'
        ORDER BY k.score DESC, k.contract_id LIMIT ${CASES_A_DAY * 4}`,
  );
  let done = 0;
  for (const { contract_id: contractId, overdue } of cases) {
    if (done >= CASES_A_DAY) break;
    const last = worked.get(contractId);
    if (last && daysBetween(last, date) < REST_DAYS) continue;
    worked.set(contractId, date);
    done += 1;
    const owed = Math.max(100, Number(overdue));
    const coming = nextPayment(byDate, contractId, date, 7);
    const roll = random.next();
    const log = (body: Parameters<typeof logAction>[3]) =>
      withTransaction(ctx, (tx) => logAction(tx, staff.collector, contractId, body));
    const call = (outcome: ContactOutcome, note: string) => log({ kind: 'call', outcome, note });
    if (coming) {
      await call('will_pay', 'Customer says the money comes in this week');
      await log({
        kind: 'promise',
        promiseDate: coming.date,
        promiseAmount: Math.min(owed, coming.amount),
        note: 'Will pay by M-Pesa',
      });
    } else if (roll < 0.35) {
      await call('reached', 'Customer asked for a few more days');
      await log({ kind: 'promise', promiseDate: addDays(date, random.int(1, 3)), promiseAmount: owed });
    } else if (roll < 0.65) {
      await call('no_answer', 'Rang twice');
    } else if (roll < 0.85) {
      await log({ kind: 'message', note: 'Sent the amount overdue and the pay-bill number' });
    } else {
      await log({ kind: 'visit', outcome: 'not_home', note: 'Left a note with a neighbour' });
    }
  }
  return done;
}

/** The contract's first planned payment within `days` after `date`: its date and amount. */
function nextPayment(
  byDate: ReadonlyMap<string, PlannedDemoPayment[]>,
  contractId: string,
  date: string,
  days: number,
): { date: string; amount: number } | null {
  for (let day = date; day <= addDays(date, days); day = addDays(day, 1)) {
    const found = byDate.get(day)?.find((payment) => payment.contractId === contractId);
    if (found) return { date: day, amount: found.amount };
  }
  return null;
}

/**
 * The field team's day: the units of contracts defaulted a month or more are asked for by the
 * collector, approved by the manager and brought back that afternoon, valued at a share of their
 * cost by their condition, the balance left written off. A device lender takes its units back
 * from customers who stopped paying; without it the demo's defaulted book only grew, and a
 * year-old book's PAR30 was over a quarter of it.
 */
async function recoverLongDefaulted(
  date: string,
  at: (hour: number) => AppContext,
  staff: DemoStaff,
  random: Random,
): Promise<number> {
  const morning = at(10);
  const due = await queryRows<{ id: string; cost: string | null }>(
    morning.db,
    sql`SELECT c.id, d.cost_price::text AS cost
        FROM contracts c JOIN contract_figures f ON f.contract_id = c.id JOIN devices d ON d.id = c.device_id
        WHERE c.status = 'defaulted'
          AND ${pastDueAtLeast(date, sql`coalesce((c.terms->>'defaultAfterDays')::int, 0) + ${RECOVER_AFTER_DAYS}`)}
          AND NOT EXISTS (SELECT 1 FROM repossessions r WHERE r.contract_id = c.id)
        ORDER BY f.arrears_since, c.id LIMIT ${RECOVERIES_A_DAY}`,
  );
  for (const { id: contractId, cost } of due) {
    const id = await withTransaction(morning, (tx) =>
      requestRepossession(
        tx,
        staff.collector,
        contractId,
        'Defaulted a month ago; the customer stopped answering',
      ),
    );
    await withTransaction(at(11), (tx) =>
      decideRepossession(tx, staff.manager, id, 'approve', 'Bring the unit in'),
    );
    const condition = random.pick(['good', 'good', 'damaged', 'parts_missing'] as const);
    const share = { good: 0.4, damaged: 0.15, parts_missing: 0.1 }[condition];
    await withTransaction(at(16), (tx) =>
      recoverRepossession(tx, staff.manager, id, {
        condition,
        recoveryValue: Math.round((Number(cost ?? 0) * share) / 100) * 100,
        balance: 'write_off',
      }),
    );
  }
  return due.length;
}

/** One repossession approved and not yet recovered: the furthest gone defaulted contract's unit. */
async function repossessOne(
  date: string,
  requestAt: AppContext,
  approveAt: AppContext,
  staff: DemoStaff,
): Promise<void> {
  const [contract] = await queryRows<{ id: string }>(
    requestAt.db,
    sql`SELECT c.id FROM contracts c JOIN contract_figures f ON f.contract_id = c.id
        WHERE c.status IN ('defaulted', 'active') AND ${pastDueMoreThan(date, 60)}
        ORDER BY c.status = 'defaulted' DESC, f.arrears_since, c.id LIMIT 1`,
  );
  if (!contract) return;
  const id = await withTransaction(requestAt, (tx) =>
    requestRepossession(
      tx,
      staff.collector,
      contract.id,
      'No payment in months; the customer no longer answers',
    ),
  );
  await withTransaction(approveAt, (tx) =>
    decideRepossession(tx, staff.manager, id, 'approve', 'Collect the unit this week'),
  );
}
