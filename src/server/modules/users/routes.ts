import { inviteEndpoints, userEndpoints } from '../../../contracts/auth';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import {
  createInvite,
  listInvites,
  listStaffUsers,
  previewInvite,
  revokeInvite,
  updateStaffUser,
} from './service';

/** Staff user administration and invite links (PRODUCT.md section 3, Admin: users). */
export async function userRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const admin = { access: 'admin.users', tags: ['users'] } as const;

  route(app, userEndpoints.list, admin, () => listStaffUsers(ctx));

  route(app, userEndpoints.update, admin, (request) =>
    withTransaction(ctx, (tx) => updateStaffUser(tx, actorOf(request), request.params.id, request.body)),
  );

  route(app, inviteEndpoints.list, admin, () => listInvites(ctx));

  route(app, inviteEndpoints.create, admin, (request) => {
    const baseUrl = ctx.config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
    return withTransaction(ctx, (tx) => createInvite(tx, actorOf(request), request.body, baseUrl));
  });

  route(app, inviteEndpoints.revoke, admin, (request) =>
    withTransaction(ctx, (tx) => revokeInvite(tx, actorOf(request), request.params.id)),
  );

  // The register page shows whom an invite is for before the form is filled in.
  route(
    app,
    inviteEndpoints.lookup,
    { access: 'public', tags: ['users'], rateLimit: { max: 30, timeWindow: '1 minute' } },
    (request) => previewInvite(ctx, request.query.token),
  );
}
