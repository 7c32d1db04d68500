import { z } from 'zod';
import {
  accountSchema,
  journalPageSchema,
  journalQuery,
  trialBalanceQuery,
  trialBalanceSchema,
} from '../../../contracts/ledger';
import type { AppInstance } from '../../app';
import { sendCsv, toCsv } from '../../lists';

const JOURNAL_EXPORT_LIMIT = 10_000;

import { accounts, journal, trialBalance } from './service';

/** /finance: the chart of accounts, the journal and the trial balance. */
export async function ledgerRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['ledger'];

  app.get(
    '/api/ledger/accounts',
    { config: { access: 'finance.read' }, schema: { tags, response: { 200: z.array(accountSchema) } } },
    () => accounts(ctx),
  );

  app.get(
    '/api/ledger/journal',
    {
      config: { access: 'finance.read' },
      schema: { tags, querystring: journalQuery, response: { 200: journalPageSchema } },
    },
    async (request, reply) => {
      if (request.query.format !== 'csv') return journal(ctx, request.query);
      // Entries are fetched with their lines by id, so one export holds at most 10,000 entries.
      const page = await journal(ctx, { ...request.query, page: 1, pageSize: JOURNAL_EXPORT_LIMIT });
      const lines = page.items.flatMap((entry) => entry.lines.map((line) => ({ entry, line })));
      return sendCsv(
        reply,
        'journal.csv',
        toCsv(lines, [
          { header: 'Entry', value: (r) => r.entry.number },
          { header: 'Date', value: (r) => r.entry.businessDate },
          { header: 'Description', value: (r) => r.entry.description },
          { header: 'Account', value: (r) => r.line.accountCode },
          { header: 'Account name', value: (r) => r.line.accountName },
          { header: 'Debit (minor units)', value: (r) => r.line.debit },
          { header: 'Credit (minor units)', value: (r) => r.line.credit },
          { header: 'Currency', value: (r) => r.entry.currency },
        ]),
      );
    },
  );

  app.get(
    '/api/ledger/trial-balance',
    {
      config: { access: 'finance.read' },
      schema: { tags, querystring: trialBalanceQuery, response: { 200: trialBalanceSchema } },
    },
    (request) => trialBalance(ctx, request.query.asOf),
  );
}
