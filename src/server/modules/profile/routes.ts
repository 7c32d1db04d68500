import { profileEndpoints } from '../../../contracts/profile';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { unauthorized } from '../../errors';
import { userId } from '../../plugins/session';
import { route } from '../../route';
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

/** /profile: name and email, password, two-factor sign-in, and the user's own sessions. */
export async function profileRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const own = { access: 'signedIn', tags: ['profile'] } as const;
  const sessionId = (request: { session: { id: string } | null }) => {
    if (!request.session) throw unauthorized();
    return request.session.id;
  };

  route(app, profileEndpoints.update, own, (request) =>
    withTransaction(ctx, (tx) => updateProfile(tx, actorOf(request), request.body)),
  );

  route(app, profileEndpoints.changePassword, own, async (request) => {
    await withTransaction(ctx, (tx) =>
      changePassword(tx, actorOf(request), sessionId(request), request.body),
    );
    return { ok: true as const };
  });

  route(app, profileEndpoints.twoFactor, own, (request) => twoFactorStatus(ctx, userId(request)));

  route(app, profileEndpoints.twoFactorSetup, own, (request) =>
    withTransaction(ctx, (tx) => startTwoFactor(tx, userId(request))),
  );

  route(app, profileEndpoints.twoFactorEnable, own, async (request) => ({
    recoveryCodes: await withTransaction(ctx, (tx) =>
      enableTwoFactor(tx, actorOf(request), request.body.code),
    ),
  }));

  route(app, profileEndpoints.twoFactorDisable, own, async (request) => {
    await withTransaction(ctx, (tx) => disableTwoFactor(tx, actorOf(request), request.body.currentPassword));
    return { ok: true as const };
  });

  route(app, profileEndpoints.recoveryCodes, own, async (request) => ({
    recoveryCodes: await withTransaction(ctx, (tx) =>
      regenerateRecoveryCodes(tx, actorOf(request), request.body.currentPassword),
    ),
  }));

  route(app, profileEndpoints.sessions, own, (request) =>
    listSessions(ctx, userId(request), sessionId(request)),
  );

  route(app, profileEndpoints.revokeOtherSessions, own, async (request) => ({
    revoked: await withTransaction(ctx, (tx) =>
      revokeOtherSessions(tx, actorOf(request), sessionId(request)),
    ),
  }));
}
