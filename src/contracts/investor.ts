import { z } from 'zod';
import { customerTag } from './customers';
import { type Endpoint, endpoint, idParams, okSchema } from './endpoint';

/**
 * Investor codes (issue 16 §2) and the investor portal (§3): aggregates only, under an investor
 * session. No answer of the portal carries a customer's name, phone, national id, or any
 * customer or contract id (a test walks these endpoints and scans the answers).
 */

/** What a code shows: the whole portfolio, or the contracts of customers carrying a tag (a fund). */
export const investorScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('portfolio') }),
  z.object({ kind: z.literal('tag'), tag: z.string() }),
]);
export type InvestorScope = z.infer<typeof investorScopeSchema>;

export const INVESTOR_CODE_STATUSES = ['active', 'expired', 'revoked'] as const;
export type InvestorCodeStatus = (typeof INVESTOR_CODE_STATUSES)[number];

/** A code as staff see it: never the code itself, only its last four characters. */
export const investorCodeSchema = z.object({
  id: z.string(),
  label: z.string(),
  hint: z.string(),
  scope: investorScopeSchema,
  status: z.enum(INVESTOR_CODE_STATUSES),
  /** The instant it stops working: the end of `expiresOn` (UTC). */
  expiresAt: z.string(),
  /** The last day it works, as it was issued (YYYY-MM-DD): what people are shown. */
  expiresOn: z.iso.date(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  useCount: z.number().int(),
});
export type InvestorCode = z.infer<typeof investorCodeSchema>;

export const issueInvestorCodeBody = z.strictObject({
  label: z
    .string({ error: 'A label is text' })
    .trim()
    .min(1, 'Give the code a label (who it is for)')
    .max(100, 'A label is at most 100 characters'),
  /** The last day the code works (it ends at the end of that day, UTC). */
  expiresOn: z.iso.date('The expiry must be a date (YYYY-MM-DD)'),
  scope: z.discriminatedUnion(
    'kind',
    [
      z.strictObject({ kind: z.literal('portfolio') }),
      z.strictObject({ kind: z.literal('tag'), tag: customerTag }),
    ],
    { error: 'Scope is the whole portfolio or a customer tag' },
  ),
});
export type IssueInvestorCodeBody = z.input<typeof issueInvestorCodeBody>;

export const investorLoginBody = z.strictObject({
  code: z.string({ error: 'Enter your investor code' }).min(1, 'Enter your investor code').max(200),
});

/** Who is signed in to the portal: the code's label and scope. */
export const investorMeSchema = z.object({ label: z.string(), scope: investorScopeSchema });
export type InvestorMe = z.infer<typeof investorMeSchema>;

/**
 * The headline figures at the end of the latest closed business date (`asOf`; null before the
 * first close), in minor units of `currency`. Ratios are 0..1 (the collection rate may pass 1
 * when customers pay ahead).
 */
export const investorSummarySchema = z.object({
  asOf: z.iso.date().nullable(),
  currency: z.string(),
  /** Principal of every contract activated so far, and how many. */
  disbursed: z.number(),
  contracts: z.number().int(),
  /** Outstanding principal of the live contracts, and how many there are. */
  outstanding: z.number(),
  liveContracts: z.number().int(),
  /** Instalment amounts collected so far (deposits excluded). */
  collected: z.number(),
  /** Portfolio at risk: outstanding principal more than 30 / 90 days late, over the outstanding. */
  par30: z.number(),
  par90: z.number(),
  par30Amount: z.number(),
  par90Amount: z.number(),
  /** Collected over the instalment amounts due so far. */
  collectionRate: z.number(),
  /** Interest and fees collected over the principal disbursed. */
  yield: z.number(),
  defaults: z.object({
    /** Live contracts in default and their outstanding principal. */
    count: z.number().int(),
    principal: z.number(),
    /** Contracts written off so far and the principal they left unpaid. */
    writtenOffCount: z.number().int(),
    writtenOffPrincipal: z.number(),
  }),
  recoveries: z.object({
    /** Units repossessed so far and the principal their contracts left unpaid. */
    repossessedCount: z.number().int(),
    repossessedPrincipal: z.number(),
  }),
});
export type InvestorSummary = z.infer<typeof investorSummarySchema>;

/** Disbursed and collected per calendar month (the month's last closed date against the one before). */
export const investorCashFlowsSchema = z.object({
  currency: z.string(),
  months: z.array(z.object({ month: z.string(), disbursed: z.number(), collected: z.number() })),
});
export type InvestorCashFlows = z.infer<typeof investorCashFlowsSchema>;

/** Per start month: collected over disbursed at the end of each month on book. */
export const investorVintagesSchema = z.object({
  currency: z.string(),
  vintages: z.array(
    z.object({
      vintage: z.string(),
      contracts: z.number().int(),
      disbursed: z.number(),
      points: z.array(z.object({ monthsOnBook: z.number().int(), collected: z.number(), ratio: z.number() })),
    }),
  ),
});
export type InvestorVintages = z.infer<typeof investorVintagesSchema>;

/** PAR30 and PAR90 per closed date, the last 30 (the dashboard's sparklines' span). */
export const investorParTrendSchema = z.object({
  points: z.array(
    z.object({ date: z.iso.date(), outstanding: z.number(), par30: z.number(), par90: z.number() }),
  ),
});
export type InvestorParTrend = z.infer<typeof investorParTrendSchema>;

export const investorReportQuery = z
  .strictObject({
    from: z.iso.date('from must be a date (YYYY-MM-DD)'),
    to: z.iso.date('to must be a date (YYYY-MM-DD)'),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] });

export const investorEndpoints = {
  // Staff: /admin/investor-codes (administrators).
  codes: endpoint({
    method: 'GET',
    path: '/api/investor-codes',
    response: z.object({ items: z.array(investorCodeSchema) }),
  }),
  /** The code is in this answer only: it is stored as its SHA-256. */
  issue: endpoint({
    method: 'POST',
    path: '/api/investor-codes',
    body: issueInvestorCodeBody,
    response: z.object({ code: z.string(), item: investorCodeSchema }),
    status: 201,
  }),
  /** Ends the code's sessions at once. */
  revoke: endpoint({
    method: 'POST',
    path: '/api/investor-codes/:id/revoke',
    params: idParams('investor code'),
    response: investorCodeSchema,
  }),
  // The portal.
  login: endpoint({
    method: 'POST',
    path: '/api/investor/login',
    body: investorLoginBody,
    response: investorMeSchema,
  }),
  logout: endpoint({ method: 'POST', path: '/api/investor/logout', response: okSchema }),
  me: endpoint({ method: 'GET', path: '/api/investor/me', response: investorMeSchema }),
  summary: endpoint({ method: 'GET', path: '/api/investor/summary', response: investorSummarySchema }),
  cashFlows: endpoint({ method: 'GET', path: '/api/investor/cash-flows', response: investorCashFlowsSchema }),
  vintages: endpoint({ method: 'GET', path: '/api/investor/vintages', response: investorVintagesSchema }),
  parTrend: endpoint({ method: 'GET', path: '/api/investor/par-trend', response: investorParTrendSchema }),
  reportPdf: endpoint({
    method: 'GET',
    path: '/api/investor/report.pdf',
    query: investorReportQuery,
    response: 'file',
  }),
  reportXlsx: endpoint({
    method: 'GET',
    path: '/api/investor/report.xlsx',
    query: investorReportQuery,
    response: 'file',
  }),
} satisfies Record<string, Endpoint>;
