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
