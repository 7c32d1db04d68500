import { z } from 'zod';
import { endpoint, idParams, okSchema } from './endpoint';
import { moneyInput } from './money';

/**
 * Customer portal (issue 16 §1; API.md "Customer portal"): a customer signs in with their phone
 * and a one-time code, then reaches only their own contracts, payments, receipts, statements,
 * unlock codes, chat and preferences. Every id in a path is checked server-side against the
 * signed-in customer: another customer's id answers 404, as an unknown one does.
 *
 * This file imports no other area's contracts: the portal's page loads it on a phone within a
 * 120 KB budget, and those files would bring every schema of their area. Statuses are therefore
 * plain strings here, and the language is checked against CUSTOMER_LANGUAGES by the server.
 */

/** What a customer types: trimmed, checked and normalised to E.164 by the server. */
const phoneInput = z
  .string({ error: 'Enter your phone number' })
  .trim()
  .min(4, 'Enter your phone number')
  .max(30, 'A phone number has at most 30 characters');

export const OTP_DIGITS = 6;

export const otpBody = z.strictObject({ phone: phoneInput });
export const loginBody = z.strictObject({
  phone: phoneInput,
  code: z
    .string({ error: 'Enter the code we sent you' })
    .trim()
    .regex(/^\d{6}$/, `The code has ${OTP_DIGITS} digits`),
});

export const portalCustomerSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});

/** The channels a customer may opt out of from the portal. */
export const PORTAL_CONSENTS = ['sms', 'whatsapp', 'email'] as const;
export type PortalConsent = (typeof PORTAL_CONSENTS)[number];

export const portalMeSchema = portalCustomerSchema.extend({
  phone: z.string(),
  language: z.string(),
  /** true: messages on this channel are allowed. */
  consents: z.object({ sms: z.boolean(), whatsapp: z.boolean(), email: z.boolean() }),
});
export type PortalMe = z.infer<typeof portalMeSchema>;

export const preferencesBody = z.strictObject({
  /** Two letters, one of the customers area's CUSTOMER_LANGUAGES (checked by the server). */
  language: z
    .string({ error: 'Language must be a two-letter code' })
    .regex(/^[a-z]{2}$/, 'Language must be a two-letter code')
    .optional(),
  consents: z
    .strictObject({
      sms: z.boolean({ error: 'SMS must be true or false' }).optional(),
      whatsapp: z.boolean({ error: 'WhatsApp must be true or false' }).optional(),
      email: z.boolean({ error: 'E-mail must be true or false' }).optional(),
    })
    .optional(),
});

/** The latest unlock code of a contract's device, and the days it adds. */
export const portalTokenSchema = z.object({
  token: z.string(),
  type: z.string(),
  /** null for tokens that add no time (unlock for good, counter sync). */
  days: z.number().nullable(),
  issuedAt: z.string(),
});
export type PortalToken = z.infer<typeof portalTokenSchema>;

/** One instalment as the customer reads it. */
export const portalInstallmentSchema = z.object({
  n: z.number().int(),
  dueDate: z.string(),
  total: z.number().int(),
  paid: z.number().int(),
  /** paid, partial, overdue, due or upcoming. */
  status: z.string(),
});

export const portalPaymentSchema = z.object({
  id: z.string(),
  receiptNumber: z.string(),
  amount: z.number().int(),
  method: z.string(),
  reference: z.string().nullable(),
  receivedAt: z.string(),
  status: z.string(),
});
export type PortalPayment = z.infer<typeof portalPaymentSchema>;

export const portalContractSchema = z.object({
  id: z.string(),
  number: z.string(),
  /** active, defaulted or paid_off. */
  status: z.string(),
  currency: z.string(),
  device: z.string().nullable(),
  frequency: z.string(),
  regularPayment: z.number().int(),
  totalPayable: z.number().int(),
  totalPaid: z.number().int(),
  creditBalance: z.number().int(),
  /** Paid share of what the contract costs in all, 0 to 1. */
  progress: z.number(),
  dpd: z.number().int(),
  outstanding: z.object({
    principal: z.number().int(),
    interest: z.number().int(),
    fees: z.number().int(),
    penalties: z.number().int(),
    total: z.number().int(),
  }),
  paidThroughDate: z.string(),
  nextDue: z
    .object({ installmentNumber: z.number().int(), dueDate: z.string(), amount: z.number().int() })
    .nullable(),
  schedule: z.array(portalInstallmentSchema),
  payments: z.array(portalPaymentSchema),
  token: portalTokenSchema.nullable(),
});
export type PortalContract = z.infer<typeof portalContractSchema>;

export const payBody = z.strictObject({
  amount: moneyInput('amount').refine((value) => value > 0, 'amount must be more than 0'),
});

/** A pay-now push as the customer follows it. */
export const portalPushSchema = z.object({
  id: z.string(),
  contractId: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  /** pending, succeeded or failed. */
  status: z.string(),
  /** Why it failed, in the provider's words. */
  resultDesc: z.string().nullable(),
  paymentId: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type PortalPush = z.infer<typeof portalPushSchema>;

export const chatBody = z.strictObject({
  text: z
    .string({ error: 'Write a message' })
    .trim()
    .min(1, 'Write a message')
    .max(1000, 'A message has at most 1000 characters'),
});

export const chatLineSchema = z.object({
  id: z.string(),
  /** Who wrote it: the customer, the assistant, or a person of the team. */
  from: z.enum(['you', 'assistant', 'team']),
  body: z.string(),
  createdAt: z.string(),
});
export type ChatLine = z.infer<typeof chatLineSchema>;

const contractId = idParams('contract');

export const portalEndpoints = {
  /** 202 whether or not the phone is known; rate limited per phone and per address. */
  otp: endpoint({ method: 'POST', path: '/api/portal/otp', body: otpBody, response: okSchema, status: 202 }),
  login: endpoint({
    method: 'POST',
    path: '/api/portal/login',
    body: loginBody,
    response: z.object({ customer: portalCustomerSchema }),
  }),
  logout: endpoint({ method: 'POST', path: '/api/portal/logout', response: okSchema }),
  me: endpoint({ method: 'GET', path: '/api/portal/me', response: portalMeSchema }),
  preferences: endpoint({
    method: 'PATCH',
    path: '/api/portal/preferences',
    body: preferencesBody,
    response: portalMeSchema,
  }),
  contracts: endpoint({
    method: 'GET',
    path: '/api/portal/contracts',
    response: z.object({ items: z.array(portalContractSchema) }),
  }),
  contract: endpoint({
    method: 'GET',
    path: '/api/portal/contracts/:id',
    params: contractId,
    response: portalContractSchema,
  }),
  statementPdf: endpoint({
    method: 'GET',
    path: '/api/portal/contracts/:id/statement.pdf',
    params: contractId,
    response: 'file',
  }),
  receiptPdf: endpoint({
    method: 'GET',
    path: '/api/portal/payments/:id/receipt.pdf',
    params: idParams('payment'),
    response: 'file',
  }),
  /** Pay now: an STK push to the customer's own phone. */
  pay: endpoint({
    method: 'POST',
    path: '/api/portal/contracts/:id/pay',
    params: contractId,
    body: payBody,
    response: portalPushSchema,
    status: 201,
  }),
  push: endpoint({
    method: 'GET',
    path: '/api/portal/pushes/:id',
    params: idParams('push'),
    response: portalPushSchema,
  }),
  /** The contract's latest unlock code again by SMS (202, queued); at most one every 2 minutes. */
  resendToken: endpoint({
    method: 'POST',
    path: '/api/portal/contracts/:id/token/resend',
    params: contractId,
    response: okSchema,
    status: 202,
  }),
  /** The thread's latest lines (a team member's reply included), as the chat opens; empty before the first message. */
  chatLines: endpoint({
    method: 'GET',
    path: '/api/portal/chat',
    response: z.object({ lines: z.array(chatLineSchema) }),
  }),
  /** A message to the customer-service assistant; answers the thread's latest lines. */
  chat: endpoint({
    method: 'POST',
    path: '/api/portal/chat',
    body: chatBody,
    response: z.object({ lines: z.array(chatLineSchema) }),
  }),
};
