/**
 * Deterministic replay of a contract: the state of its instalments is a pure function of the
 * schedule, the posted payments and the closes of business that have run. Reversals and
 * back-dated payments are handled by replaying: drop the reversed payment (or insert the
 * back-dated one) and replay; the allocation of a payment depends only on what happened before
 * it, so payments dated before the affected date keep exactly the same lines, and only those from
 * that date on need to be rewritten (`reallocateFrom`).
 *
 * Event order on each business date: that day's payments in the given order (the caller passes
 * them in posting order), then the day's close of business (late fees, PRODUCT.md "Close of
 * business" step 2) when the date is on or before `closedThrough`.
 */
import {
  type AllocationLine,
  type AllocationStrategy,
  allocatePayment,
  clonePositions,
  type InstallmentPosition,
  type ReamortizationTerms,
} from './allocation';
import { addDays, assertBusinessDate, type BusinessDate } from './dates';
import { applyLateFees, assessLateFees, type LateFeeCharge, type LateFeeRule } from './delinquency';
import { DomainError, invalid } from './errors';
import { assertSafeMoney } from './money';
import { type PayoffOptions, settleContract } from './payoff';

export interface PaymentEvent {
  id: string;
  date: BusinessDate;
  amount: number;
  /** 'settlement' settles the contract early (payoff rule) when the amount reaches the payoff amount. */
  kind?: 'payment' | 'settlement';
}

export interface ReplayInput {
  /** The instalments as scheduled (nothing paid; manual penalties may be included in `due`). */
  installments: readonly InstallmentPosition[];
  startDate: BusinessDate;
  payments: readonly PaymentEvent[];
  strategy?: AllocationStrategy;
  /** Required for principal reduction. */
  terms?: ReamortizationTerms;
  lateFee?: { rule: LateFeeRule; graceDays: number };
  /** Last business date whose close of business has run (late fees are assessed up to it). */
  closedThrough?: BusinessDate;
  /** How settlement payments are quoted. */
  payoff?: Omit<PayoffOptions, 'startDate' | 'credit'>;
}

export interface PaymentAllocation {
  paymentId: string;
  date: BusinessDate;
  amount: number;
  lines: AllocationLine[];
  /** Part of this payment that became customer credit. */
  credit: number;
  /** Lines paid out of earlier credit (settlements only). */
  creditLines: AllocationLine[];
  settled: boolean;
  rescheduled: boolean;
}

export interface ReplayResult {
  installments: InstallmentPosition[];
  credit: number;
  allocations: PaymentAllocation[];
  lateFees: LateFeeCharge[];
}

export function replayContract(input: ReplayInput): ReplayResult {
  assertBusinessDate(input.startDate, 'startDate');
  if (input.strategy === 'principal_reduction' && !input.terms) {
    throw invalid(
      'terms',
      'Principal reduction needs the contract terms (method, APR, frequency, instalment)',
    );
  }
  if (input.closedThrough !== undefined) assertBusinessDate(input.closedThrough, 'closedThrough');
  const payments = input.payments
    .map((p, index) => {
      assertBusinessDate(p.date, 'payment date');
      assertSafeMoney(p.amount, 'payment amount');
      if (p.amount <= 0) throw invalid('amount', `Payment ${p.id} must have an amount greater than 0`);
      return { p, index };
    })
    .sort((a, b) => (a.p.date < b.p.date ? -1 : a.p.date > b.p.date ? 1 : a.index - b.index))
    .map((x) => x.p);

  // Closes of business at which a late fee can first be charged: due date + grace + 1.
  const feeDates = new Set<BusinessDate>();
  const late = input.lateFee;
  if (late && input.closedThrough) {
    for (const p of input.installments) {
      const d = addDays(p.dueDate, late.graceDays + 1);
      if (d <= input.closedThrough) feeDates.add(d);
    }
  }
  const dates = [...new Set<BusinessDate>([...payments.map((p) => p.date), ...feeDates])].sort();

  let positions = clonePositions(input.installments);
  let credit = 0;
  const allocations: PaymentAllocation[] = [];
  const lateFees: LateFeeCharge[] = [];
  const charged = new Set<number>();
  let next = 0;
  for (const date of dates) {
    while (next < payments.length && payments[next]?.date === date) {
      const payment = payments[next] as PaymentEvent;
      next += 1;
      if (payment.kind === 'settlement') {
        try {
          const s = settleContract(positions, payment.amount, date, {
            ...input.payoff,
            startDate: input.startDate,
            credit,
          });
          positions = s.installments;
          credit = s.credit;
          allocations.push({
            paymentId: payment.id,
            date,
            amount: payment.amount,
            lines: s.lines,
            credit: payment.amount - s.lines.reduce((sum, l) => sum + l.amount, 0),
            creditLines: s.creditLines,
            settled: true,
            rescheduled: false,
          });
          continue;
        } catch (error) {
          if (!(error instanceof DomainError && error.code === 'PAYOFF_SHORT')) throw error;
          // Short of the payoff: an ordinary payment.
        }
      }
      const a = allocatePayment(
        positions,
        payment.amount,
        date,
        input.strategy === 'principal_reduction' && input.terms
          ? { strategy: 'principal_reduction', terms: input.terms }
          : {},
      );
      positions = a.installments;
      credit += a.credit;
      allocations.push({
        paymentId: payment.id,
        date,
        amount: payment.amount,
        lines: a.lines,
        credit: a.credit,
        creditLines: [],
        settled: false,
        rescheduled: a.rescheduled,
      });
    }
    if (late && feeDates.has(date)) {
      const candidates = positions.filter((p) => addDays(p.dueDate, late.graceDays + 1) === date);
      const charges = assessLateFees(candidates, date, late.rule, late.graceDays, charged);
      if (charges.length) {
        positions = applyLateFees(positions, charges);
        for (const c of charges) {
          charged.add(c.installmentNumber);
          lateFees.push(c);
        }
      }
    }
  }
  return { installments: positions, credit, allocations, lateFees };
}

/**
 * Replays and returns, besides the new state, only the allocations of payments dated on or after
 * `fromDate`: the ones a reversal or back-dated payment on that date can change.
 */
export function reallocateFrom(
  input: ReplayInput,
  fromDate: BusinessDate,
): ReplayResult & { changed: PaymentAllocation[] } {
  assertBusinessDate(fromDate, 'fromDate');
  const result = replayContract(input);
  return { ...result, changed: result.allocations.filter((a) => a.date >= fromDate) };
}
