import type { FastifyRequest } from 'fastify';
import { profileEndpoints } from '../../../contracts/profile';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { AppError, unauthorized } from '../../errors';
import { userId } from '../../plugins/session';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { assertNotThrottled, recordFailure } from '../auth/throttle';
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

  /**
   * A call that checks the current password is throttled like sign-in (issue 12 §4): five wrong
   * within 15 minutes from one address, and it waits. A wrong password is recorded after its
   * transaction rolled back, so the count survives the refusal.
   */
  const checkingPassword = async <T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> => {
    const email = request.session?.user.email ?? '';
    await assertNotThrottled(ctx, { email, ip: request.ip, knownAddress: true });
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && error.code === 'WRONG_PASSWORD')
        await recordFailure(ctx, email, request.ip);
      throw error;
    }
  };

  route(app, profileEndpoints.update, own, (request) => {
    const save = () => withTransaction(ctx, (tx) => updateProfile(tx, actorOf(request), request.body));
    // Only a new email asks for the current password; a name change has none to throttle.
    return request.body.email === request.session?.user.email ? save() : checkingPassword(request, save);
  });

  route(app, profileEndpoints.changePassword, own, async (request) => {
    await checkingPassword(request, () =>
      withTransaction(ctx, (tx) => changePassword(tx, actorOf(request), sessionId(request), request.body)),
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
    await checkingPassword(request, () =>
      withTransaction(ctx, (tx) => disableTwoFactor(tx, actorOf(request), request.body.currentPassword)),
    );
    return { ok: true as const };
  });

  route(app, profileEndpoints.recoveryCodes, own, async (request) => ({
    recoveryCodes: await checkingPassword(request, () =>
      withTransaction(ctx, (tx) =>
        regenerateRecoveryCodes(tx, actorOf(request), request.body.currentPassword),
      ),
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
