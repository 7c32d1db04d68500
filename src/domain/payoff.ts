/**
 * Payoff (early settlement) quote at a business date, and the settlement itself.
 *
 * payoff(D) = all unpaid principal
 *           + unpaid interest, service fees and penalties of instalments due on or before D
 *           + interest of instalments not yet due, per the interest rule:
 *               'accrued'   (default for declining): only the current period's interest accrued to
 *                           D: the next instalment's scheduled interest x elapsed days / period days
 *                           (HALF_EVEN), less what was already paid of it; later interest is waived;
 *               'scheduled' (default for flat): all their unpaid scheduled interest;
 *           - early-settlement discount: percent x that not-yet-due interest (HALF_EVEN);
 *           - customer credit (never below zero).
 * Service fees of instalments not yet due are waived (the service stops with the contract).
 * The quote lists the waivers so that, once applied, the unpaid dues equal total + credit exactly.
 */
import {
  type AllocationLine,
  allocatePayment,
  clonePositions,
  type InstallmentPosition,
  isSettled,
  sortPositions,
  sumComponents,
  totalOutstanding,
} from './allocation';
import { assertBusinessDate, type BusinessDate, toDayNumber } from './dates';
import { invalid, refused } from './errors';
import { assertSafeMoney } from './money';
import { type DecimalInput, divHalfEvenBig, mulRatioHalfEven, ratio, ratioFromDecimal } from './rational';
import type { InterestMethod } from './schedule';

export type PayoffInterestRule = 'accrued' | 'scheduled';

export interface PayoffOptions {
  /** Contract start date: the first instalment's period starts there. */
  startDate: BusinessDate;
  /** Picks the default interest rule: declining -> 'accrued', flat -> 'scheduled'. */
  method?: InterestMethod;
  interestRule?: PayoffInterestRule;
  /** Percent of the not-yet-due interest included in the quote that is forgiven. */
  earlySettlementDiscountPercent?: DecimalInput;
  /** Customer credit held on the contract. */
  credit?: number;
}

export interface PayoffWaiver {
  installmentNumber: number;
  component: 'fee' | 'interest';
  amount: number;
}

export interface PayoffQuote {
  date: BusinessDate;
  interestRule: PayoffInterestRule;
  principal: number;
  /** Unpaid interest of instalments due on or before the date. */
  interestDue: number;
  /** Interest of not-yet-due instalments included (before the discount). */
  interestNotYetDue: number;
  /** Unpaid service fees of instalments due on or before the date. */
  fees: number;
  penalties: number;
  discount: number;
  credit: number;
  /** What the customer pays to settle on the date. */
  total: number;
  waivers: PayoffWaiver[];
}

export function payoffQuote(
  installments: readonly InstallmentPosition[],
  date: BusinessDate,
  options: PayoffOptions,
): PayoffQuote {
  assertBusinessDate(date, 'date');
  assertBusinessDate(options.startDate, 'startDate');
  const rule: PayoffInterestRule =
    options.interestRule ?? (options.method === 'flat' ? 'scheduled' : 'accrued');
  const credit = options.credit ?? 0;
  assertSafeMoney(credit, 'credit');
  if (credit < 0) throw invalid('credit', 'credit cannot be negative');
  const positions = sortPositions(clonePositions(installments));

  let principal = 0;
  let interestDue = 0;
  let fees = 0;
  let penalties = 0;
  const futureIncluded: { p: InstallmentPosition; included: number }[] = [];
  let previousDue = options.startDate;
  let sawFuture = false;
  for (const p of positions) {
    principal += p.due.principal - p.paid.principal;
    penalties += p.due.penalty - p.paid.penalty;
    const unpaidInterest = p.due.interest - p.paid.interest;
    if (p.dueDate <= date) {
      interestDue += unpaidInterest;
      fees += p.due.fee - p.paid.fee;
      previousDue = p.dueDate;
      continue;
    }
    let included = 0;
    if (rule === 'scheduled') included = unpaidInterest;
    else if (!sawFuture) {
      const period = toDayNumber(p.dueDate) - toDayNumber(previousDue);
      const elapsed = Math.max(0, toDayNumber(date) - toDayNumber(previousDue));
      const accrued =
        period <= 0
          ? p.due.interest
          : Number(divHalfEvenBig(BigInt(p.due.interest) * BigInt(elapsed), BigInt(period)));
      included = Math.min(Math.max(0, accrued - p.paid.interest), unpaidInterest);
    }
    sawFuture = true;
    futureIncluded.push({ p, included });
  }

  const interestNotYetDue = futureIncluded.reduce((s, f) => s + f.included, 0);
  let discount = 0;
  if (options.earlySettlementDiscountPercent !== undefined) {
    const pct = ratioFromDecimal(options.earlySettlementDiscountPercent, 'earlySettlementDiscountPercent');
    if (pct.num < 0n || pct.num > 100n * pct.den) {
      throw invalid(
        'earlySettlementDiscountPercent',
        'The early-settlement discount must be between 0 and 100 percent',
      );
    }
    discount = mulRatioHalfEven(interestNotYetDue, ratio(pct.num, pct.den * 100n));
  }

  // Waivers: fees and non-included interest of not-yet-due instalments, then the discount from the last backwards.
  const waivers: PayoffWaiver[] = [];
  const interestWaived = new Map<number, number>();
  for (const { p, included } of futureIncluded) {
    const fee = p.due.fee - p.paid.fee;
    if (fee > 0) waivers.push({ installmentNumber: p.n, component: 'fee', amount: fee });
    interestWaived.set(p.n, p.due.interest - p.paid.interest - included);
  }
  let discountLeft = discount;
  for (let i = futureIncluded.length - 1; i >= 0 && discountLeft > 0; i--) {
    const f = futureIncluded[i];
    if (!f) continue;
    const take = Math.min(f.included, discountLeft);
    interestWaived.set(f.p.n, (interestWaived.get(f.p.n) ?? 0) + take);
    discountLeft -= take;
  }
  for (const { p } of futureIncluded) {
    const amount = interestWaived.get(p.n) ?? 0;
    if (amount > 0) waivers.push({ installmentNumber: p.n, component: 'interest', amount });
  }

  const gross = principal + interestDue + interestNotYetDue + fees + penalties - discount;
  return {
    date,
    interestRule: rule,
    principal,
    interestDue,
    interestNotYetDue,
    fees,
    penalties,
    discount,
    credit,
    total: assertSafeMoney(Math.max(0, gross - credit), 'payoff'),
    waivers,
  };
}

/** Positions with the quote's waivers applied (their dues reduced). */
export function applyWaivers(
  installments: readonly InstallmentPosition[],
  waivers: readonly PayoffWaiver[],
): InstallmentPosition[] {
  const out = clonePositions(installments);
  for (const w of waivers) {
    const p = out.find((x) => x.n === w.installmentNumber);
    if (!p) throw invalid('installmentNumber', `No instalment number ${w.installmentNumber}`);
    p.due[w.component] -= w.amount;
  }
  return out;
}

export interface SettlementResult {
  quote: PayoffQuote;
  /** Allocation of the payment. */
  lines: AllocationLine[];
  /** Allocation of customer credit used to complete the settlement. */
  creditLines: AllocationLine[];
  /** Credit after the settlement (unused credit + any overpayment). */
  credit: number;
  installments: InstallmentPosition[];
}

/**
 * Settles the contract on `date` with a payment of `amount`: the quote's waivers are applied and
 * the payment (then the existing credit) is allocated in the default order. Refused when the
 * payment and credit do not reach the payoff amount.
 */
export function settleContract(
  installments: readonly InstallmentPosition[],
  amount: number,
  date: BusinessDate,
  options: PayoffOptions,
): SettlementResult {
  const quote = payoffQuote(installments, date, options);
  assertSafeMoney(amount, 'payment amount');
  if (amount < quote.total) {
    throw refused(
      'PAYOFF_SHORT',
      `The payoff amount on ${date} is ${quote.total}; ${amount} does not settle the contract`,
      'amount',
    );
  }
  let positions = applyWaivers(installments, quote.waivers);
  let lines: AllocationLine[] = [];
  let credit = quote.credit;
  if (amount > 0) {
    const paid = allocatePayment(positions, amount, date);
    positions = paid.installments;
    lines = paid.lines;
    credit += paid.credit;
  }
  let creditLines: AllocationLine[] = [];
  if (quote.credit > 0 && !positions.every(isSettled)) {
    const owed = sumComponents(totalOutstanding(positions));
    const use = Math.min(owed, quote.credit);
    const fromCredit = allocatePayment(positions, use, date);
    positions = fromCredit.installments;
    creditLines = fromCredit.lines;
    credit -= use;
  }
  return { quote, lines, creditLines, credit, installments: positions };
}
