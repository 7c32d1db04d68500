import { z } from 'zod';
import { endpoint, idempotencyHeaders, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { moneyInput } from './money';

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

/** What staff may post through POST /api/payments (deposits go through the contract). */
export const POSTING_METHODS = [
  'cash',
  'mobile_money',
  'bank_transfer',
  'card',
  'auto_debit',
  'adjustment',
] as const;

const reason = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, 'Give a reason (at least 3 characters)')
  .max(500, 'The reason is at most 500 characters');

/** API.md: POST /api/payments. */
export const paymentCreateBody = z.strictObject({
  contractId: z.uuid('Choose a contract'),
  amount: moneyInput('amount').refine((value) => value > 0, 'amount must be more than 0'),
  method: z.enum(POSTING_METHODS, { error: `method must be one of: ${POSTING_METHODS.join(', ')}` }),
  reference: z.string().trim().min(1, 'reference must not be empty').max(100).optional(),
  receivedAt: z.iso.datetime({ offset: true, error: 'receivedAt must be an ISO date-time' }).optional(),
});
export type PaymentCreateBody = z.input<typeof paymentCreateBody>;

export const allocationLineSchema = z.object({
  installmentNumber: z.number().int().nullable(),
  component: z.enum(ALLOCATION_COMPONENTS),
  amount: z.number().int(),
});
export type AllocationLineView = z.infer<typeof allocationLineSchema>;

export const issuedTokenSchema = z.object({
  token: z.string(),
  type: z.string(),
  days: z.number().int().nullable(),
});

export const paymentDeviceCommandSchema = z.object({
  id: z.string(),
  kind: z.enum(['unlock', 'release']),
  deviceId: z.string(),
});

export const paymentSchema = z.object({
  id: z.string(),
  receiptNumber: z.string(),
  contractId: z.string().nullable(),
  contractNumber: z.string().nullable(),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  method: z.enum(PAYMENT_METHODS),
  provider: z.string().nullable(),
  reference: z.string().nullable(),
  accountReference: z.string().nullable(),
  receivedAt: z.string(),
  valueDate: z.string().nullable(),
  status: z.enum(PAYMENT_STATUSES),
  credit: z.number().int(),
  postedByName: z.string().nullable(),
  postedAt: z.string().nullable(),
  reversedAt: z.string().nullable(),
  reversalReason: z.string().nullable(),
  refunded: z.boolean(),
  transferredFrom: z.string().nullable(),
  /** A token the payment bought (OpenPAYGO units), for the receipt. */
  token: issuedTokenSchema.nullable(),
  /** The command the payment queued for a lock-API unit (an unlock that clears arrears, a release when paid off). */
  deviceCommand: paymentDeviceCommandSchema.nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentResultSchema = z.object({
  payment: paymentSchema,
  allocations: z.array(allocationLineSchema),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

/** The allocation a payment would get now, nothing written (the post form's preview). */
export const paymentPreviewBody = paymentCreateBody.pick({
  contractId: true,
  amount: true,
  receivedAt: true,
});
export const paymentPreviewSchema = z.object({
  allocations: z.array(allocationLineSchema),
  outstandingBefore: z.number().int(),
  outstandingAfter: z.number().int(),
  paidThroughBefore: z.string(),
  paidThroughAfter: z.string(),
  currency: z.string(),
});

export const paymentListQuery = listQuery(['receivedAt', 'amount', 'receiptNumber'], {
  status: z
    .enum(PAYMENT_STATUSES, { error: `status must be one of: ${PAYMENT_STATUSES.join(', ')}` })
    .optional(),
  method: z
    .enum(PAYMENT_METHODS, { error: `method must be one of: ${PAYMENT_METHODS.join(', ')}` })
    .optional(),
  contractId: z.uuid('contractId must be a contract id').optional(),
  from: z.iso.date('from must be a date (YYYY-MM-DD)').optional(),
  to: z.iso.date('to must be a date (YYYY-MM-DD)').optional(),
});
export const paymentPageSchema = pageOf(paymentSchema);

export const reverseBody = z.strictObject({ reason });
export const transferBody = z.strictObject({
  contractId: z.uuid('Choose the contract to transfer to'),
  reason,
});
export const decisionBody = z.strictObject({ note: z.string().trim().max(500).optional() });

export const correctionSchema = z.object({
  id: z.string(),
  kind: z.enum(CORRECTION_KINDS),
  status: z.enum(CORRECTION_STATUSES),
  reason: z.string(),
  payment: paymentSchema,
  targetContractId: z.string().nullable(),
  targetContractNumber: z.string().nullable(),
  requestedBy: z.string().nullable(),
  requestedByName: z.string().nullable(),
  requestedAt: z.string(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export type Correction = z.infer<typeof correctionSchema>;
export const correctionListQuery = listQuery(['requestedAt'], {
  status: z
    .enum(CORRECTION_STATUSES, { error: `status must be one of: ${CORRECTION_STATUSES.join(', ')}` })
    .optional(),
});
export const correctionPageSchema = pageOf(correctionSchema);

/** A payment named beside another: the original of a transfer, or the payment it became. */
export const paymentLinkSchema = z.object({
  id: z.string(),
  receiptNumber: z.string(),
  contractId: z.string().nullable(),
  contractNumber: z.string().nullable(),
  status: z.enum(PAYMENT_STATUSES),
});
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

/** A payment's corrections (oldest first) and where a transfer took it from or to: its receipt's history. */
export const paymentHistorySchema = z.object({
  corrections: z.array(correctionSchema.omit({ payment: true })),
  /** This payment was posted by an approved transfer of that one. */
  transferredFrom: paymentLinkSchema.nullable(),
  /** An approved transfer of this payment posted that one on the other contract. */
  transferredTo: paymentLinkSchema.nullable(),
});
export type PaymentHistory = z.infer<typeof paymentHistorySchema>;

const paymentId = idParams('payment');
const correctionId = idParams('correction');

/** /api/payments: posting, history, and corrections with maker-checker. */
export const paymentEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/payments',
    query: paymentListQuery,
    response: paymentPageSchema,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/payments/:id',
    params: paymentId,
    response: paymentResultSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/payments',
    headers: idempotencyHeaders,
    body: paymentCreateBody,
    response: paymentResultSchema,
    status: 201,
    alsoStatus: 200,
  }),
  preview: endpoint({
    method: 'POST',
    path: '/api/payments/preview',
    body: paymentPreviewBody,
    response: paymentPreviewSchema,
  }),
  reverse: endpoint({
    method: 'POST',
    path: '/api/payments/:id/reverse',
    params: paymentId,
    body: reverseBody,
    response: correctionSchema,
    status: 201,
  }),
  transfer: endpoint({
    method: 'POST',
    path: '/api/payments/:id/transfer',
    params: paymentId,
    body: transferBody,
    response: correctionSchema,
    status: 201,
  }),
  history: endpoint({
    method: 'GET',
    path: '/api/payments/:id/history',
    params: paymentId,
    response: paymentHistorySchema,
  }),
  corrections: endpoint({
    method: 'GET',
    path: '/api/payment-corrections',
    query: correctionListQuery,
    response: correctionPageSchema,
  }),
  approveCorrection: endpoint({
    method: 'POST',
    path: '/api/payment-corrections/:id/approve',
    params: correctionId,
    body: decisionBody,
    response: correctionSchema,
  }),
  rejectCorrection: endpoint({
    method: 'POST',
    path: '/api/payment-corrections/:id/reject',
    params: correctionId,
    body: decisionBody,
    response: correctionSchema,
  }),
  /** A payment's receipt, a PDF the browser opens (REVERSED when it was). */
  receiptPdf: endpoint({
    method: 'GET',
    path: '/api/payments/:id/receipt.pdf',
    params: paymentId,
    response: 'file',
  }),
  /** A contract's customer statement: schedule, payments with their allocation, balance and credit. */
  statementPdf: endpoint({
    method: 'GET',
    path: '/api/contracts/:id/statement.pdf',
    params: idParams('contract'),
    response: 'file',
  }),
};

// ---------------------------------------------------------------------------------------------
// Mobile money (M-Pesa Daraja style, PRODUCT.md section 7; API.md "Contracts and payments"):
// the provider's callbacks, the suspense queue, and STK push.

/** Text or a number the provider may send either way (Daraja sandboxes differ). */
const providerText = (field: string, max = 100) =>
  z
    .union(
      [
        z.string({ error: `${field} must be text` }).max(max, `${field} is at most ${max} characters`),
        z.number(),
      ],
      {
        error: `${field} must be text`,
      },
    )
    .transform((value) => String(value).trim());

/**
 * The Daraja C2B confirmation and validation payload. Loose: fields the provider adds later are
 * kept in the payment's payload rather than refusing the money (decision 020).
 */
export const c2bCallbackBody = z.looseObject({
  TransactionType: providerText('TransactionType').optional(),
  TransID: z
    .string({ error: 'TransID must be text' })
    .trim()
    .min(1, 'TransID must not be empty')
    .max(40, 'TransID is at most 40 characters')
    .regex(/^[A-Za-z0-9]+$/, 'TransID must be letters and digits'),
  TransTime: providerText('TransTime', 20).pipe(
    z.string().regex(/^\d{14}$/, 'TransTime must be YYYYMMDDHHmmss'),
  ),
  TransAmount: providerText('TransAmount', 30).pipe(
    z.string().regex(/^\d+(\.\d+)?$/, 'TransAmount must be a decimal amount such as 150.00'),
  ),
  BusinessShortCode: providerText('BusinessShortCode', 20).optional(),
  BillRefNumber: providerText('BillRefNumber').optional(),
  InvoiceNumber: providerText('InvoiceNumber').optional(),
  OrgAccountBalance: providerText('OrgAccountBalance').optional(),
  ThirdPartyTransID: providerText('ThirdPartyTransID').optional(),
  MSISDN: providerText('MSISDN', 100).optional(),
  FirstName: providerText('FirstName').optional(),
  MiddleName: providerText('MiddleName').optional(),
  LastName: providerText('LastName').optional(),
});
export type C2bCallback = z.output<typeof c2bCallbackBody>;

/** `?token=` of the callback URLs registered with the provider (MPESA_CALLBACK_TOKEN). */
export const webhookQuery = z.object({ token: z.string().max(500).optional() });

/** What Daraja expects back: 0 accepts; a `C2B000xx` code rejects (validation only). */
export const c2bResultSchema = z.object({
  ResultCode: z.union([z.literal(0), z.string()]),
  ResultDesc: z.string(),
});
export type C2bResult = z.infer<typeof c2bResultSchema>;

const stkItem = z.looseObject({
  Name: z.string({ error: 'Name must be text' }).max(100),
  Value: z.union([z.string().max(100), z.number()]).optional(),
});

/** Daraja's STK push result: `Body.stkCallback`, with `CallbackMetadata` on success. */
export const stkCallbackBody = z.looseObject({
  Body: z.looseObject(
    {
      stkCallback: z.looseObject(
        {
          MerchantRequestID: providerText('MerchantRequestID').optional(),
          CheckoutRequestID: z
            .string({ error: 'CheckoutRequestID must be text' })
            .trim()
            .min(1, 'CheckoutRequestID must not be empty')
            .max(100),
          ResultCode: z.coerce
            .number({ error: 'ResultCode must be a number' })
            .int('ResultCode must be a whole number'),
          ResultDesc: z.string({ error: 'ResultDesc must be text' }).max(500).optional(),
          CallbackMetadata: z
            .looseObject({ Item: z.array(stkItem, { error: 'Item must be a list' }).max(50) })
            .optional(),
        },
        { error: 'stkCallback must be an object' },
      ),
    },
    { error: 'Body must be an object' },
  ),
});
export type StkCallback = z.output<typeof stkCallbackBody>;

/** Matching a suspense payment to a contract posts it there. */
export const matchSuspenseBody = z.strictObject({
  contractId: z.uuid('Choose a contract'),
  reason,
});
/** A suspense payment given back to the payer instead. */
export const refundSuspenseBody = z.strictObject({ reason });

/** Staff ask the customer's phone to approve a payment (STK push). */
export const pushBody = z.strictObject({
  contractId: z.uuid('Choose a contract'),
  /** The number to ask; the customer's own when left out. */
  phone: z.string().trim().min(4, 'Enter a phone number').max(30).optional(),
  amount: moneyInput('amount').refine((value) => value > 0, 'amount must be more than 0'),
});
export type PushBody = z.input<typeof pushBody>;

export const pushSchema = z.object({
  id: z.string(),
  contractId: z.string(),
  contractNumber: z.string().nullable(),
  phone: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  provider: z.string(),
  checkoutRequestId: z.string().nullable(),
  status: z.enum(PUSH_STATUSES),
  resultCode: z.number().int().nullable(),
  resultDesc: z.string().nullable(),
  /** The payment it brought, once the provider confirmed it. */
  paymentId: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Push = z.infer<typeof pushSchema>;

/** Provider callbacks (public, token-checked, CSRF-exempt), the suspense queue, STK push. */
export const mobileMoneyEndpoints = {
  c2bConfirmation: endpoint({
    method: 'POST',
    path: '/api/webhooks/mpesa/c2b/confirmation',
    query: webhookQuery,
    body: c2bCallbackBody,
    response: c2bResultSchema,
  }),
  c2bValidation: endpoint({
    method: 'POST',
    path: '/api/webhooks/mpesa/c2b/validation',
    query: webhookQuery,
    body: c2bCallbackBody,
    response: c2bResultSchema,
  }),
  stkCallback: endpoint({
    method: 'POST',
    path: '/api/webhooks/mpesa/stk/callback',
    query: webhookQuery,
    body: stkCallbackBody,
    response: c2bResultSchema,
  }),
  /** The suspense queue itself is `GET /api/payments?status=suspense`. */
  match: endpoint({
    method: 'POST',
    path: '/api/payments/:id/match',
    params: paymentId,
    body: matchSuspenseBody,
    response: paymentResultSchema,
  }),
  refund: endpoint({
    method: 'POST',
    path: '/api/payments/:id/refund',
    params: paymentId,
    body: refundSuspenseBody,
    response: paymentResultSchema,
  }),
  push: endpoint({
    method: 'POST',
    path: '/api/payments/push',
    body: pushBody,
    response: pushSchema,
    status: 201,
  }),
  pushStatus: endpoint({
    method: 'GET',
    path: '/api/payments/push/:id',
    params: idParams('push'),
    response: pushSchema,
  }),
};
