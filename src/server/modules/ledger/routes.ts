import { z } from 'zod';
import { accountSchema, trialBalanceQuery, trialBalanceSchema } from '../../../contracts/ledger';
import type { AppInstance } from '../../app';
import { listRoute } from '../../list-route';
import { journalList } from './list';
import { accounts, trialBalance } from './service';

/** /finance: the chart of accounts, the journal and the trial balance. */
export async function ledgerRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['ledger'];

  app.get(
    '/api/ledger/accounts',
    { config: { access: 'finance.read' }, schema: { tags, response: { 200: z.array(accountSchema) } } },
    () => accounts(ctx),
  );

  listRoute(app, journalList, { access: 'finance.read', tags });

  app.get(
    '/api/ledger/trial-balance',
    {
      config: { access: 'finance.read' },
      schema: { tags, querystring: trialBalanceQuery, response: { 200: trialBalanceSchema } },
    },
    (request) => trialBalance(ctx, request.query.asOf),
  );
}
