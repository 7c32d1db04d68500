import { z } from 'zod';
import { endpoint } from './endpoint';
import { listQuery, pageOf } from './lists';

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;

/**
 * What a journal entry records (its `sourceType`): every posting names one of these, so the
 * journal's source filter offers each kind of entry the app writes.
 */
export const JOURNAL_SOURCES = [
  'deposit',
  'contract_activation',
  'payment',
  'payment.reversal',
  'payment.suspense',
  'payment.match',
  'payment.refund',
  'late_fee',
  'interest_accrual',
  'repossession',
  'write_off',
  'stock_receipt',
  'inventory_loss',
  'inventory_recovery',
] as const;
export type JournalSource = (typeof JOURNAL_SOURCES)[number];

export const accountSchema = z.object({
  code: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  description: z.string().nullable(),
  active: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const journalLineSchema = z.object({
  accountCode: z.string(),
  accountName: z.string(),
  debit: z.number().int(),
  credit: z.number().int(),
  contractId: z.string().nullable(),
  memo: z.string().nullable(),
});

export const journalEntrySchema = z.object({
  id: z.string(),
  number: z.string(),
  businessDate: z.string(),
  description: z.string(),
  sourceType: z.string(),
  sourceId: z.string().nullable(),
  currency: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /**
   * The entry's lines, or a part of a large one on a page: at most `JOURNAL_LINES_SHOWN`, and
   * with a contract filter only that contract's lines and those of no contract (a batch entry
   * of the close of business has a line per contract charged). A CSV export has every line.
   */
  lines: z.array(journalLineSchema),
  /** Every line of the entry, and their totals, whatever `lines` shows. */
  lineCount: z.number().int(),
  debitTotal: z.number().int(),
  creditTotal: z.number().int(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** The most lines of one entry a journal page carries. */
export const JOURNAL_LINES_SHOWN = 20;

export const journalQuery = listQuery(['businessDate', 'number'], {
  from: z.iso.date('from must be a date (YYYY-MM-DD)').optional(),
  to: z.iso.date('to must be a date (YYYY-MM-DD)').optional(),
  accountCode: z.string().max(20).optional(),
  sourceType: z
    .enum(JOURNAL_SOURCES, { error: `sourceType must be one of: ${JOURNAL_SOURCES.join(', ')}` })
    .optional(),
  contractId: z.uuid('Not a valid contract id').optional(),
});
export const journalPageSchema = pageOf(journalEntrySchema);

export const trialBalanceQuery = z.strictObject({
  asOf: z.iso.date('asOf must be a date (YYYY-MM-DD)').optional(),
});
export const trialBalanceSchema = z.object({
  asOf: z.string(),
  currency: z.string(),
  rows: z.array(
    accountSchema.pick({ code: true, name: true, type: true }).extend({
      debit: z.number().int(),
      credit: z.number().int(),
      /** Debit minus credit: positive for debit balances. */
      balance: z.number().int(),
    }),
  ),
  totals: z.object({ debit: z.number().int(), credit: z.number().int() }),
  balanced: z.boolean(),
});
export type TrialBalance = z.infer<typeof trialBalanceSchema>;

/** /api/ledger: the chart of accounts, the journal and the trial balance. */
export const ledgerEndpoints = {
  accounts: endpoint({
    method: 'GET',
    path: '/api/ledger/accounts',
    response: z.array(accountSchema),
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/ledger/journal',
    query: journalQuery,
    response: journalPageSchema,
  }),
  trialBalance: endpoint({
    method: 'GET',
    path: '/api/ledger/trial-balance',
    query: trialBalanceQuery,
    response: trialBalanceSchema,
  }),
};
