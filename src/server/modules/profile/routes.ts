import { z } from 'zod';
import { userSchema } from '../../../contracts/auth';
import {
  passwordChangeBody,
  profileUpdateBody,
  recoveryCodesSchema,
  sessionInfoSchema,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../../contracts/profile';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { unauthorized } from '../../errors';
import { userId } from '../../plugins/session';
import { withTransaction } from '../../transaction';
import {
  changePassword,
  disableTwoFactor,
  enableTwoFactor,
  listSessions,
  regenerateRecoveryCodes,
  revokeOtherSessions,
  startTwoFactor,
  twoFactorStatus,
  updateProfile,
} from './service';

const ok = z.object({ ok: z.literal(true) });

/** /profile: name and email, password, two-factor sign-in, and the user's own sessions. */
export async function profileRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['profile'];
  const access = { access: 'signedIn' as const };
  const sessionId = (request: { session: { id: string } | null }) => {
    if (!request.session) throw unauthorized();
    return request.session.id;
  };

  app.patch(
    '/api/user/profile',
    { config: access, schema: { tags, body: profileUpdateBody, response: { 200: userSchema } } },
    (request) => withTransaction(ctx, (tx) => updateProfile(tx, actorOf(request), request.body)),
  );

  app.post(
    '/api/user/password',
    { config: access, schema: { tags, body: passwordChangeBody, response: { 200: ok } } },
    async (request) => {
      await withTransaction(ctx, (tx) =>
        changePassword(tx, actorOf(request), sessionId(request), request.body),
      );
      return { ok: true as const };
    },
  );

  app.get(
    '/api/user/two-factor',
    { config: access, schema: { tags, response: { 200: twoFactorStatusSchema } } },
    (request) => twoFactorStatus(ctx, userId(request)),
  );

  app.post(
    '/api/user/two-factor/setup',
    { config: access, schema: { tags, response: { 200: twoFactorSetupSchema } } },
    (request) => withTransaction(ctx, (tx) => startTwoFactor(tx, userId(request))),
  );

  app.post(
    '/api/user/two-factor/enable',
    { config: access, schema: { tags, body: twoFactorEnableBody, response: { 200: recoveryCodesSchema } } },
    async (request) => ({
      recoveryCodes: await withTransaction(ctx, (tx) =>
        enableTwoFactor(tx, actorOf(request), request.body.code),
      ),
    }),
  );

  app.post(
    '/api/user/two-factor/disable',
    { config: access, schema: { tags, body: twoFactorDisableBody, response: { 200: ok } } },
    async (request) => {
      await withTransaction(ctx, (tx) =>
        disableTwoFactor(tx, actorOf(request), request.body.currentPassword),
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/api/user/two-factor/recovery-codes',
    { config: access, schema: { tags, body: twoFactorDisableBody, response: { 200: recoveryCodesSchema } } },
    async (request) => ({
      recoveryCodes: await withTransaction(ctx, (tx) =>
        regenerateRecoveryCodes(tx, actorOf(request), request.body.currentPassword),
      ),
    }),
  );

  app.get(
    '/api/user/sessions',
    { config: access, schema: { tags, response: { 200: z.array(sessionInfoSchema) } } },
    (request) => listSessions(ctx, userId(request), sessionId(request)),
  );

  app.post(
    '/api/user/sessions/revoke-others',
    { config: access, schema: { tags, response: { 200: z.object({ revoked: z.number().int() }) } } },
    async (request) => ({
      revoked: await withTransaction(ctx, (tx) =>
        revokeOtherSessions(tx, actorOf(request), sessionId(request)),
      ),
    }),
  );
}
