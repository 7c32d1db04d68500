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

/**
 * The profiles of `count` contracts, in blocks of 25 that each hold the book's mix exactly (11 on
 * time, 4 early, 5 late then catching up, 3 defaulting, 2 paid off), shuffled within the block.
 * Drawn one by one, a book of two hundred contracts strayed far from the mix (PAR30 from 12 to
 * 28 % by the day it was built); in blocks along the contracts' start dates, every age of the book
 * has its share of each.
 */
export function profileDeck(random: Random, count: number): Profile[] {
  const block: Profile[] = [
    ...Array<Profile>(11).fill('on_time'),
    ...Array<Profile>(4).fill('early'),
    ...Array<Profile>(5).fill('late_then_catching_up'),
    ...Array<Profile>(3).fill('defaulting'),
    ...Array<Profile>(2).fill('paid_off'),
  ];
  const deck: Profile[] = [];
  while (deck.length < count) {
    const shuffled = [...block];
    for (let i = shuffled.length - 1; i > 0; i -= 1) {
      const j = random.int(0, i);
      [shuffled[i], shuffled[j]] = [shuffled[j] as Profile, shuffled[i] as Profile];
    }
    deck.push(...shuffled);
  }
  return deck.slice(0, count);
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

/**
 * The payments a contract's customer makes up to `now`, by their profile, in time order. `random`
 * is the contract's own stream: how many draws one contract's plan takes (its dues up to now move
 * with the calendar) must not change the next contract's.
 */
export async function planContractPayments(
  ctx: AppContext,
  contractId: string,
  profile: Profile,
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
