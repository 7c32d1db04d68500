import { z } from 'zod';
import {
  inviteCreateBody,
  inviteCreatedSchema,
  invitePreviewSchema,
  inviteSchema,
  staffUserSchema,
  staffUserUpdateBody,
} from '../../../contracts/auth';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { withTransaction } from '../../transaction';
import {
  createInvite,
  listInvites,
  listStaffUsers,
  previewInvite,
  revokeInvite,
  updateStaffUser,
} from './service';

const idParams = z.object({ id: z.uuid('Not a valid id') });

/** Staff user administration and invite links (PRODUCT.md section 3, Admin: users). */
export async function userRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;

  app.get(
    '/api/users',
    {
      config: { access: 'admin.users' },
      schema: { tags: ['users'], response: { 200: z.array(staffUserSchema) } },
    },
    () => listStaffUsers(ctx),
  );

  app.patch(
    '/api/users/:id',
    {
      config: { access: 'admin.users' },
      schema: {
        tags: ['users'],
        params: idParams,
        body: staffUserUpdateBody,
        response: { 200: staffUserSchema },
      },
    },
    (request) =>
      withTransaction(ctx, (tx) => updateStaffUser(tx, actorOf(request), request.params.id, request.body)),
  );

  app.get(
    '/api/invites',
    {
      config: { access: 'admin.users' },
      schema: { tags: ['users'], response: { 200: z.array(inviteSchema) } },
    },
    () => listInvites(ctx),
  );

  app.post(
    '/api/invites',
    {
      config: { access: 'admin.users' },
      schema: { tags: ['users'], body: inviteCreateBody, response: { 201: inviteCreatedSchema } },
    },
    async (request, reply) => {
      const baseUrl = ctx.config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
      return reply
        .status(201)
        .send(await withTransaction(ctx, (tx) => createInvite(tx, actorOf(request), request.body, baseUrl)));
    },
  );

  app.post(
    '/api/invites/:id/revoke',
    {
      config: { access: 'admin.users' },
      schema: { tags: ['users'], params: idParams, response: { 200: inviteSchema } },
    },
    (request) => withTransaction(ctx, (tx) => revokeInvite(tx, actorOf(request), request.params.id)),
  );

  // The register page shows whom an invite is for before the form is filled in.
  app.get(
    '/api/invites/lookup',
    {
      config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['users'],
        querystring: z.strictObject({ token: z.string().min(1, 'token is required').max(200) }),
        response: { 200: invitePreviewSchema },
      },
    },
    (request) => previewInvite(ctx, request.query.token),
  );
}
