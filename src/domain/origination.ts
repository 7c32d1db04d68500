/**
 * The plan rules a contract's terms must meet, shared by the server (which refuses what breaks
 * them) and the web wizard and plan preview (which say so before anything is sent).
 */
import { percentOf } from './money';
import type { DecimalInput } from './rational';

export interface DepositTerms {
  /** Least deposit as an amount, minor units. */
  readonly minDepositAmount: number;
  /** Least deposit as a percentage of the cash price (decimal text or number). */
  readonly minDepositPercent: DecimalInput;
}

/**
 * The least deposit a plan accepts for a cash price: the larger of its amount and its percentage
 * of the price, computed exactly (150.00 at 8.3% is 12.45, never a float's 12.46).
 */
export function minimumDeposit(terms: DepositTerms, price: number): number {
  return Math.max(terms.minDepositAmount, percentOf(price, terms.minDepositPercent));
}

export interface EligibilityTerms {
  readonly code: string;
  readonly eligibleCategories: readonly string[];
  readonly eligibleModelIds: readonly string[];
}

export interface EligibleDevice {
  readonly category: string;
  readonly modelId: string;
  /** "Make Model", as people name it. */
  readonly modelName: string;
}

/**
 * Why a plan cannot finance a device (the server refuses with it as a 422), or null when it can
 * or no device is chosen yet.
 */
export function planIneligibility(plan: EligibilityTerms, device: EligibleDevice | null): string | null {
  if (!device) return null;
  if (plan.eligibleCategories.length && !plan.eligibleCategories.includes(device.category))
    return `Plan ${plan.code} does not finance ${device.category.replaceAll('_', ' ')} devices`;
  if (plan.eligibleModelIds.length && !plan.eligibleModelIds.includes(device.modelId))
    return `Plan ${plan.code} does not finance the ${device.modelName}`;
  return null;
}
