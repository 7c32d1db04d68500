/**
 * Payment allocation over a contract's instalments.
 *
 * Default order (PRODUCT.md "Payment"): instalments due before the payment date, oldest first,
 * each penalty -> fee -> interest -> principal; then the instalment due on the payment date; then
 * future instalments in due order (pay-as-you-go customers buy days ahead); anything beyond the
 * whole balance becomes customer credit.
 *
 * Principal reduction (per plan): overdue and due-today instalments are paid as above; the excess
 * then reduces the outstanding principal and the term shortens:
 * - the excess is booked as principal on the next future instalment (f1);
 * - the remaining principal is re-amortised over the same future due dates with the same regular
 *   instalment; f1 keeps its scheduled interest (the current period's interest was earned on the
 *   balance before the prepayment), later instalments get interest on the reduced balance
 *   (declining) or keep their scheduled flat interest (flat); instalments no longer needed are
 *   dropped;
 * - an excess beyond the whole principal then pays f1's own charges, and the rest is credit.
 * If a future instalment other than f1 already carries payments (e.g. the plan's strategy changed)
 * the excess is applied in default order instead, so no payment is ever lost.
 *
 * Every function is pure: positions are copied, never mutated. Lines always sum to the amount
 * minus the credit.
 */
import { assertBusinessDate, type BusinessDate, type Frequency } from './dates';
import { invalid } from './errors';
import { assertSafeMoney } from './money';
import type { DecimalInput } from './rational';
import { amortize, type InterestMethod, rateInfo, type ScheduleRow } from './schedule';

export type Component = 'penalty' | 'fee' | 'interest' | 'principal';

/** The order in which one instalment's components are paid. */
export const COMPONENT_ORDER: readonly Component[] = ['penalty', 'fee', 'interest', 'principal'];

export interface Components {
  penalty: number;
  fee: number;
  interest: number;
  principal: number;
}

/** One instalment with what is due and what has been paid, per component. `fee` is the service fee; `penalty` holds late fees. */
export interface InstallmentPosition {
  n: number;
  dueDate: BusinessDate;
  due: Components;
  paid: Components;
}

export interface AllocationLine {
  installmentNumber: number;
  component: Component;
  amount: number;
}

export type AllocationStrategy = 'default' | 'principal_reduction';

/** What principal reduction needs to re-amortise the future instalments. */
export interface ReamortizationTerms {
  method: InterestMethod;
  /** Nominal APR in percent. */
  apr: DecimalInput;
  frequency: Frequency;
  /** The regular instalment (principal + interest) kept after a prepayment. */
  installment: number;
}

export type AllocationOptions =
  | { strategy?: 'default' }
  | { strategy: 'principal_reduction'; terms: ReamortizationTerms };

export interface AllocationResult {
  lines: AllocationLine[];
  /** Part of the payment beyond the whole balance: customer credit. */
  credit: number;
  /** The positions after the payment (a new array; the input is not modified). */
  installments: InstallmentPosition[];
  /** Principal reduction re-amortised the future instalments (their dues changed, some may be gone). */
  rescheduled: boolean;
}

export const zeroComponents = (): Components => ({ penalty: 0, fee: 0, interest: 0, principal: 0 });

export function sumComponents(c: Components): number {
  return c.penalty + c.fee + c.interest + c.principal;
}

/** Unpaid amount per component of one instalment. */
export function outstandingComponents(p: InstallmentPosition): Components {
  return {
    penalty: p.due.penalty - p.paid.penalty,
    fee: p.due.fee - p.paid.fee,
    interest: p.due.interest - p.paid.interest,
    principal: p.due.principal - p.paid.principal,
  };
}

/** Total unpaid amount of one instalment (penalties included). */
export function outstandingOf(p: InstallmentPosition): number {
  return sumComponents(p.due) - sumComponents(p.paid);
}

/** An instalment is settled when every component, penalties included, is fully paid. */
export function isSettled(p: InstallmentPosition): boolean {
  return outstandingOf(p) <= 0;
}

/** Unpaid amounts per component over all instalments. */
export function totalOutstanding(positions: readonly InstallmentPosition[]): Components {
  const t = zeroComponents();
  for (const p of positions) {
    t.penalty += p.due.penalty - p.paid.penalty;
    t.fee += p.due.fee - p.paid.fee;
    t.interest += p.due.interest - p.paid.interest;
    t.principal += p.due.principal - p.paid.principal;
  }
  return t;
}

/** Fresh, unpaid positions from schedule rows. */
export function positionsFromSchedule(rows: readonly ScheduleRow[]): InstallmentPosition[] {
  return rows.map((r) => ({
    n: r.n,
    dueDate: r.dueDate,
    due: { penalty: 0, fee: r.serviceFee, interest: r.interest, principal: r.principal },
    paid: zeroComponents(),
  }));
}

export function clonePositions(positions: readonly InstallmentPosition[]): InstallmentPosition[] {
  return positions.map((p) => ({ n: p.n, dueDate: p.dueDate, due: { ...p.due }, paid: { ...p.paid } }));
}

/** Positions ordered by due date, then number (the allocation order). */
export function sortPositions(positions: InstallmentPosition[]): InstallmentPosition[] {
  return positions.sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.n - b.n));
}

/** Pays one instalment's components in order from `remaining`; returns what is left. */
function payInstallment(p: InstallmentPosition, remaining: number, lines: AllocationLine[]): number {
  let left = remaining;
  for (const component of COMPONENT_ORDER) {
    if (left === 0) break;
    const owed = p.due[component] - p.paid[component];
    if (owed <= 0) continue;
    const amount = Math.min(owed, left);
    p.paid[component] += amount;
    left -= amount;
    lines.push({ installmentNumber: p.n, component, amount });
  }
  return left;
}

/**
 * Allocates a payment received on `date`. Throws a validation error for a non-positive amount or
 * a malformed date.
 */
export function allocatePayment(
  installments: readonly InstallmentPosition[],
  amount: number,
  date: BusinessDate,
  options: AllocationOptions = {},
): AllocationResult {
  assertSafeMoney(amount, 'payment amount');
  if (amount <= 0) throw invalid('amount', 'The payment amount must be greater than 0');
  assertBusinessDate(date, 'date');
  const positions = sortPositions(clonePositions(installments));
  const lines: AllocationLine[] = [];
  let remaining = amount;

  // 1. overdue, oldest first; 2. due today.
  for (const p of positions) {
    if (remaining === 0 || p.dueDate > date) break;
    remaining = payInstallment(p, remaining, lines);
  }

  let rescheduled = false;
  let result = positions;
  if (remaining > 0) {
    const future = positions.filter((p) => p.dueDate > date);
    if (options.strategy === 'principal_reduction' && canReduce(future)) {
      const r = reducePrincipal(positions, future, date, remaining, options.terms, lines);
      remaining = r.remaining;
      result = r.positions;
      rescheduled = r.rescheduled;
    } else {
      // 3. future instalments in due order.
      for (const p of future) {
        if (remaining === 0) break;
        remaining = payInstallment(p, remaining, lines);
      }
    }
  }
  return { lines, credit: remaining, installments: result, rescheduled };
}

function canReduce(future: readonly InstallmentPosition[]): boolean {
  for (let i = 1; i < future.length; i++) {
    const f = future[i];
    if (f && sumComponents(f.paid) > 0) return false;
  }
  return future.length > 0;
}

function reducePrincipal(
  positions: InstallmentPosition[],
  future: InstallmentPosition[],
  date: BusinessDate,
  excess: number,
  terms: ReamortizationTerms,
  lines: AllocationLine[],
): { positions: InstallmentPosition[]; remaining: number; rescheduled: boolean } {
  const first = future[0] as InstallmentPosition;
  let unpaidPrincipal = 0;
  for (const f of future) unpaidPrincipal += f.due.principal - f.paid.principal;
  const prepaid = Math.min(excess, unpaidPrincipal);
  let remaining = excess - prepaid;
  if (prepaid === 0) {
    // No principal left to reduce: pay the current period's charges, the rest is credit.
    remaining = payInstallment(first, remaining, lines);
    return { positions, remaining, rescheduled: false };
  }
  const balance = unpaidPrincipal - prepaid;
  const { prepared } = rateInfo(terms.apr, terms.frequency);
  const rows = amortize({
    method: terms.method,
    principal: balance,
    installment: terms.installment,
    dueDates: future.map((f) => f.dueDate),
    firstNumber: first.n,
    rate: prepared,
    flatInterest: future.map((f) => f.due.interest),
    firstInterest: first.due.interest,
    serviceFee: future.map((f) => f.due.fee),
    stopWhenCleared: true,
  });
  const rebuilt: InstallmentPosition[] = rows.map((row, i) => {
    const old = future[i] as InstallmentPosition;
    if (i === 0) {
      const paidPrincipal = old.paid.principal + prepaid;
      return {
        n: old.n,
        dueDate: old.dueDate,
        due: {
          penalty: old.due.penalty,
          fee: old.due.fee,
          interest: old.due.interest,
          principal: paidPrincipal + row.principal,
        },
        paid: { ...old.paid, principal: paidPrincipal },
      };
    }
    return {
      n: old.n,
      dueDate: old.dueDate,
      due: {
        penalty: old.due.penalty,
        fee: row.serviceFee,
        interest: row.interest,
        principal: row.principal,
      },
      paid: { ...old.paid },
    };
  });
  lines.push({ installmentNumber: first.n, component: 'principal', amount: prepaid });
  if (remaining > 0) remaining = payInstallment(rebuilt[0] as InstallmentPosition, remaining, lines);
  const past = positions.filter((p) => p.dueDate <= date);
  return { positions: [...past, ...rebuilt], remaining, rescheduled: true };
}

/** Adds up allocation lines per component. */
export function linesByComponent(lines: readonly AllocationLine[]): Components {
  const t = zeroComponents();
  for (const l of lines) t[l.component] += l.amount;
  return t;
}
