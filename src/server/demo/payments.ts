import { daysBetween, sumComponents } from '../../domain';
import type { Actor } from '../audit';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { peekRepayment } from '../modules/contracts/repayment';
import { requestCorrection } from '../modules/payments/corrections';
import { mpesaActor, receiveMobileMoney } from '../modules/payments/mobile-money/receive';
import { postPayment } from '../modules/payments/posting';
import { withTransaction } from '../transaction';
import type { Random } from './random';

/**
 * Twelve months of payment history on the demo book (issue 13 §10), posted through the same
 * code as the API with the clock set to each payment's moment. Behaviour profiles make the book
 * look like a real one: most customers pay on time or early, some late then catch up, some stop
 * paying (PAR30 lands between 8 and 20 %), a few settle early and are paid off.
 */
export type Profile = 'on_time' | 'early' | 'late_then_catching_up' | 'defaulting' | 'paid_off';

export function pickProfile(random: Random): Profile {
  const point = random.next();
  if (point < 0.45) return 'on_time';
  if (point < 0.62) return 'early';
  if (point < 0.8) return 'late_then_catching_up';
  if (point < 0.92) return 'defaulting';
  return 'paid_off';
}

interface PlannedPayment {
  /** Days after the contract's start. */
  day: number;
  amount: number;
}

/**
 * The payments a profile makes on a schedule up to `elapsed` days after its start. Daily plans'
 * customers top up weekly (seven instalments at a time), as pay-as-you-go customers do.
 */
export function planPayments(
  profile: Profile,
  dues: ReadonlyArray<{ day: number; amount: number }>,
  elapsed: number,
  random: Random,
): PlannedPayment[] {
  const daily = dues.length > 1 && (dues[1]?.day ?? 0) - (dues[0]?.day ?? 0) === 1;
  const groups: Array<{ day: number; amount: number }> = [];
  for (let i = 0; i < dues.length; i += daily ? 7 : 1) {
    const slice = dues.slice(i, i + (daily ? 7 : 1));
    const first = slice[0];
    if (!first) break;
    groups.push({ day: first.day, amount: slice.reduce((s, d) => s + d.amount, 0) });
  }
  const due = groups.filter((g) => g.day <= elapsed);
  const planned: PlannedPayment[] = [];
  switch (profile) {
    case 'on_time':
      for (const g of due) planned.push({ day: g.day - random.int(0, 2), amount: g.amount });
      break;
    case 'early':
      for (const g of due)
        planned.push({ day: g.day - random.int(3, 8), amount: Math.round(g.amount * 1.1) });
      break;
    case 'late_then_catching_up': {
      // Pays each instalment one to three weeks late for the first half, then on time.
      const half = Math.floor(due.length / 2);
      due.forEach((g, i) => {
        planned.push({ day: g.day + (i < half ? random.int(7, 20) : random.int(-2, 1)), amount: g.amount });
      });
      break;
    }
    case 'defaulting': {
      const stopAfter = Math.floor(due.length * (0.2 + random.next() * 0.35));
      for (const g of due.slice(0, stopAfter))
        planned.push({ day: g.day + random.int(0, 6), amount: g.amount });
      break;
    }
    case 'paid_off': {
      const some = Math.max(1, Math.floor(due.length / 3));
      for (const g of due.slice(0, some)) planned.push({ day: g.day - random.int(0, 2), amount: g.amount });
      // Then settles the rest in one go (the amount is capped at what is left when posted).
      planned.push({
        day: Math.min(elapsed - 1, (due[some - 1]?.day ?? 0) + random.int(5, 20)),
        amount: Number.MAX_SAFE_INTEGER,
      });
      break;
    }
  }
  return planned.filter((p) => p.day > 0 && p.day < elapsed && p.amount > 0).sort((a, b) => a.day - b.day);
}

/** One payment a demo customer will make: when, how much, by which channel. */
export interface PlannedDemoPayment {
  contractId: string;
  profile: Profile;
  when: Date;
  amount: number;
  mobile: boolean;
}

/** The payments a contract's customer makes up to `now`, by a profile drawn for them, in time order. */
export async function planContractPayments(
  ctx: AppContext,
  contractId: string,
  random: Random,
  now: Date,
): Promise<PlannedDemoPayment[]> {
  const state = await peekRepayment(ctx, contractId);
  const start = state.row.startDate;
  const activatedAt = state.row.activatedAt ?? now;
  const elapsed = Math.floor((now.getTime() - activatedAt.getTime()) / 86_400_000);
  const dues = state.positions.map((p) => ({
    day: daysBetween(start, p.dueDate),
    amount: sumComponents(p.due),
  }));
  const profile = pickProfile(random);
  return planPayments(profile, dues, elapsed, random)
    .map((planned) => ({
      contractId,
      profile,
      when: new Date(activatedAt.getTime() + planned.day * 86_400_000 + random.int(8, 18) * 3_600_000),
      amount: planned.amount,
      mobile: random.next() < 0.7,
    }))
    .filter((planned) => planned.when.getTime() < now.getTime());
}

/**
 * Posts a planned payment through the API's posting code, with the clock at its moment. A
 * customer who means to keep up pays at least what is overdue then (late fees included); one
 * who is defaulting pays only what they planned. Answers the payment's id, or null when the
 * contract has nothing left to pay (paid off, or closed by a default).
 */
export async function postPlannedPayment(
  ctx: AppContext,
  staff: { agent: Actor; finance: Actor },
  planned: PlannedDemoPayment,
  sequence: { next: () => number },
): Promise<string | null> {
  const at = { ...ctx, clock: { now: () => planned.when } };
  // Read before the transaction: on the embedded database a read through ctx.db inside one waits for it.
  const open = await peekRepayment(at, planned.contractId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'CONTRACT_NOT_ACTIVE') return null;
    throw error;
  });
  if (!open) return null;
  const day = planned.when.toISOString().slice(0, 10);
  // What is unpaid of the instalments due by the payment's day (all of them: the whole balance).
  const owed = (all: boolean) =>
    open.positions
      .filter((p) => all || p.dueDate <= day)
      .reduce((s, p) => s + sumComponents(p.due) - sumComponents(p.paid), 0);
  const wanted = planned.profile === 'defaulting' ? planned.amount : Math.max(planned.amount, owed(false));
  const amount = Math.min(wanted, owed(true));
  if (amount <= 0) return null;
  const posted = await withTransaction(at, (tx) =>
    postPayment(tx, planned.mobile ? staff.finance : staff.agent, {
      contractId: planned.contractId,
      amount,
      method: planned.mobile ? 'mobile_money' : 'cash',
      provider: planned.mobile ? 'mpesa' : 'cash',
      reference: planned.mobile ? `DEMO${String(sequence.next()).padStart(6, '0')}` : null,
    }),
  );
  return posted.paymentId;
}

/** A few M-Pesa payments whose account reference names no contract: the suspense queue. */
export async function seedSuspense(ctx: AppContext, random: Random, now: Date): Promise<number> {
  const typos = ['CT-00O012', 'JOHN K', '0722 000 111', 'SPARK 5', 'PAYMENT'];
  for (const [i, reference] of typos.entries()) {
    const when = new Date(now.getTime() - random.int(1, 72) * 3_600_000);
    await withTransaction({ ...ctx, clock: { now: () => when } }, (tx) =>
      receiveMobileMoney(tx, mpesaActor(), {
        amount: random.pick([50_000, 120_000, 250_000, 300_000]),
        reference: `DEMOSUS${String(i + 1).padStart(3, '0')}`,
        receivedAt: when,
        accountReference: reference,
        payload: { demo: true },
      }),
    );
  }
  return typos.length;
}

/** One reversal waiting for a checker, so the queue is not empty on a first look. */
export async function seedPendingReversal(ctx: AppContext, finance: Actor, paymentId: string): Promise<void> {
  await withTransaction(ctx, (tx) =>
    requestCorrection(tx, finance, paymentId, {
      kind: 'reverse',
      reason: 'Customer reports the same M-Pesa payment was recorded twice',
    }),
  );
}
