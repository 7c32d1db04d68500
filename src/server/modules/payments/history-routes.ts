import { paymentEndpoints } from '../../../contracts/payments';
import type { AppInstance } from '../../app';
import { route } from '../../route';
import { paymentHistory } from './corrections';

/** A payment's receipt history: its reversal and transfer requests and the payments a transfer links. */
export async function paymentHistoryRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  route(app, paymentEndpoints.history, { access: 'business.read', tags: ['payments'] }, (request) =>
    paymentHistory(ctx.db, request.params.id),
  );
}
