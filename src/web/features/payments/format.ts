import type { Correction, Payment, PaymentMethod, PaymentStatus } from '@/contracts/payments';
import type { BadgeProps } from '@/web/components/ui/badge';

/** How payments read on screen. */
export const METHOD_LABELS: Record<PaymentMethod, string> = {
  deposit: 'Deposit',
  cash: 'Cash',
  mobile_money: 'Mobile money',
  bank_transfer: 'Bank transfer',
  card: 'Card',
  auto_debit: 'Auto-debit',
  adjustment: 'Adjustment',
};

/** Providers by the name the server records ("mpesa"), as people write them. */
const PROVIDER_LABELS: Record<string, string> = { mpesa: 'M-Pesa' };
export const providerName = (provider: string): string => PROVIDER_LABELS[provider] ?? provider;

export const STATUS_LABELS: Record<PaymentStatus, string> = {
  posted: 'Posted',
  reversed: 'Reversed',
  suspense: 'In suspense',
  pending: 'Pending',
  failed: 'Failed',
};

export const STATUS_VARIANTS: Record<PaymentStatus, BadgeProps['variant']> = {
  posted: 'success',
  reversed: 'destructive',
  suspense: 'warning',
  pending: 'secondary',
  failed: 'destructive',
};

export const COMPONENT_LABELS: Record<string, string> = {
  penalty: 'Penalty',
  fee: 'Service fee',
  interest: 'Interest',
  principal: 'Principal',
  credit: 'Customer credit',
};

export const CORRECTION_LABELS: Record<Correction['kind'], string> = {
  reverse: 'Reversal',
  transfer: 'Transfer',
};

export const CORRECTION_STATUS_LABELS: Record<Correction['status'], string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

export const CORRECTION_STATUS_VARIANTS: Record<Correction['status'], BadgeProps['variant']> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'secondary',
};

/**
 * What staff post by hand (POST /api/payments): cash for everyone who may post; the others only
 * for finance users (payments.manage). Auto-debit is the debit job's, deposits the contract's.
 */
export const MANUAL_METHODS = ['cash', 'mobile_money', 'bank_transfer', 'card', 'adjustment'] as const;
export type ManualMethod = (typeof MANUAL_METHODS)[number];

/** A fresh Idempotency-Key: one per submission, reused when the same submission is retried. */
export function newIdempotencyKey(): string {
  return globalThis.crypto?.randomUUID?.() ?? `payment-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Where a payment's receipt lives in the app (the agent's notification links there too). */
export const receiptHref = (payment: Pick<Payment, 'id'>): string =>
  `/payment-processing/receipts/${payment.id}`;

/** "#3" or "—" for lines not tied to an instalment (credit). */
export const installmentText = (n: number | null): string => (n === null ? '—' : `#${n}`);
