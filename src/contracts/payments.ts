/** Payments (PRODUCT.md section 2, Payment): the values the API and the database share. */

export const PAYMENT_METHODS = [
  'deposit',
  'cash',
  'mobile_money',
  'bank_transfer',
  'card',
  'auto_debit',
  'adjustment',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_STATUSES = ['posted', 'reversed', 'suspense', 'pending', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** The parts of a contract's balance a payment is allocated to. */
export const ALLOCATION_COMPONENTS = ['penalty', 'fee', 'interest', 'principal', 'credit'] as const;

/** A reversal or a transfer of a posted payment waits for a second user (maker-checker). */
export const CORRECTION_KINDS = ['reverse', 'transfer'] as const;
export type CorrectionKind = (typeof CORRECTION_KINDS)[number];
export const CORRECTION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];

/** A statement import: previewed, then confirmed (posted) or discarded. */
export const IMPORT_STATUSES = ['previewed', 'posting', 'posted', 'discarded'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Mobile money push requests (STK push in the Daraja manner). */
export const PUSH_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];

/** Auto-debit (PRODUCT.md section 2): an attempt's state; `scheduled` until it is tried. */
export const DEBIT_ATTEMPT_STATUSES = ['scheduled', 'succeeded', 'failed', 'retrying'] as const;
export type DebitAttemptStatus = (typeof DEBIT_ATTEMPT_STATUSES)[number];
export const MANDATE_METHODS = ['mobile_money', 'card', 'bank_transfer'] as const;
export type MandateMethod = (typeof MANDATE_METHODS)[number];
