import type { Correction, Payment, PaymentHistory, PaymentResult } from '@/contracts/payments';
import { IDS } from '@/web/features/contracts/test-fixtures';

export const PAYMENT_ID = '88888888-8888-4888-8888-888888888888';

export function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: PAYMENT_ID,
    receiptNumber: 'R-000123',
    contractId: IDS.contract,
    contractNumber: 'CT-000042',
    customerId: IDS.customer,
    customerName: 'Amina Wanjiru',
    amount: 40_000,
    currency: 'USD',
    method: 'cash',
    provider: null,
    reference: null,
    accountReference: null,
    receivedAt: '2026-01-20T09:30:00.000Z',
    valueDate: '2026-01-20',
    status: 'posted',
    credit: 0,
    postedByName: 'Joseph Kamau',
    postedAt: '2026-01-20T09:30:01.000Z',
    reversedAt: null,
    reversalReason: null,
    refunded: false,
    transferredFrom: null,
    token: null,
    deviceCommand: null,
    ...overrides,
  };
}

export function paymentResult(overrides: Partial<Payment> = {}): PaymentResult {
  return {
    payment: payment(overrides),
    allocations: [
      { installmentNumber: 1, component: 'interest', amount: 1_562 },
      { installmentNumber: 1, component: 'principal', amount: 30_638 },
      { installmentNumber: 2, component: 'interest', amount: 1_180 },
      { installmentNumber: 2, component: 'principal', amount: 6_620 },
    ],
  };
}

export function correction(overrides: Partial<Correction> = {}): Correction {
  return {
    id: '99999999-9999-4999-8999-999999999999',
    kind: 'reverse',
    status: 'pending',
    reason: 'Cheque bounced',
    payment: payment(),
    targetContractId: null,
    targetContractNumber: null,
    requestedBy: IDS.maker,
    requestedByName: 'Fiona Finance',
    requestedAt: '2026-01-21T10:00:00.000Z',
    decidedByName: null,
    decidedAt: null,
    decisionNote: null,
    ...overrides,
  };
}

/** A receipt's history entry: a correction without its payment. */
export function historyEntry(overrides: Partial<PaymentHistory['corrections'][number]> = {}) {
  const { payment: _, ...entry } = correction();
  return { ...entry, ...overrides };
}

export function history(corrections: PaymentHistory['corrections']): PaymentHistory {
  return { corrections, transferredFrom: null, transferredTo: null };
}
