import { ledgerEndpoints } from '../../../contracts/ledger';
import type { AppInstance } from '../../app';
import { listRoute } from '../../list-route';
import { route } from '../../route';
import { journalList } from './list';
import { accounts, trialBalance } from './service';

/** /finance: the chart of accounts, the journal and the trial balance. */
export async function ledgerRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const read = { access: 'finance.read', tags: ['ledger'] } as const;

  route(app, ledgerEndpoints.accounts, read, () => accounts(ctx));

  listRoute(app, journalList, read);

  route(app, ledgerEndpoints.trialBalance, read, (request) => trialBalance(ctx, request.query.asOf));
}
