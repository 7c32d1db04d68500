import type { VariantProps } from 'class-variance-authority';
import type { Plan } from '@/contracts/plans';
import type { badgeVariants } from '@/web/components/ui/badge';

type BadgeVariant = NonNullable<VariantProps<typeof badgeVariants>['variant']>;

export const PLAN_STATUS_LABELS: Record<Plan['status'], string> = {
  draft: 'Draft',
  active: 'Active',
  retired: 'Retired',
};
export const PLAN_STATUS_VARIANTS: Record<Plan['status'], BadgeVariant> = {
  draft: 'warning',
  active: 'success',
  retired: 'outline',
};
export const FREQUENCY_LABELS: Record<Plan['frequency'], string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};
/** "12 months", "52 weeks", "90 days". */
export const PERIOD_NAMES: Record<Plan['frequency'], [string, string]> = {
  daily: ['day', 'days'],
  weekly: ['week', 'weeks'],
  monthly: ['month', 'months'],
};
export const METHOD_LABELS: Record<Plan['interestMethod'], string> = {
  declining: 'Declining balance',
  flat: 'Flat',
};
export const LATE_FEE_LABELS: Record<Plan['lateFeeKind'], string> = {
  none: 'No late fee',
  flat: 'Flat amount',
  percent: '% of the overdue instalment',
};
export const ALLOCATION_LABELS: Record<Plan['allocationStrategy'], string> = {
  default: 'Oldest first, then future instalments',
  principal_reduction: 'Excess reduces principal (shorter term)',
};

export function termsText(plan: Pick<Plan, 'allowedTerms' | 'frequency'>): string {
  const [one, many] = PERIOD_NAMES[plan.frequency];
  const terms = plan.allowedTerms;
  if (terms.length === 1) return `${terms[0]} ${terms[0] === 1 ? one : many}`;
  return `${terms.join(', ')} ${many}`;
}

/** Percent for people: up to 4 decimals, no trailing zeros. */
export function percentText(value: number): string {
  return `${Number(value.toFixed(4))}%`;
}
