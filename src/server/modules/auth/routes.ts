import type { FastifyReply, FastifyRequest } from 'fastify';
import { authEndpoints, type LoginInput } from '../../../contracts/auth';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { unauthorized } from '../../errors';
import { issueCsrfToken } from '../../plugins/csrf';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { toUser } from '../users/service';
import { login, logout, register, type SignInMeta } from './service';

/** Sign-in endpoints get a coarse per-address limit on top of the per-account failure throttle. */
const AUTH_RATE_LIMIT = { max: 60, timeWindow: '1 minute' };

function signInMeta(request: FastifyRequest): SignInMeta {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    requestId: String(request.id),
    previousSessionId: request.session?.id,
  };
}

export async function authRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['auth'];
  const signInOptions = { access: 'public', csrf: false, rateLimit: AUTH_RATE_LIMIT, tags } as const;

  route(app, authEndpoints.csrfToken, { access: 'public', tags }, async (request, reply) => ({
    csrfToken: issueCsrfToken(request, reply, ctx.keyring),
  }));

  const signIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    input: LoginInput,
    adminOnly: boolean,
  ) => {
    const { user, token } = await login(ctx, input, signInMeta(request), { adminOnly });
    setSessionCookie(request, reply, token, ctx.config.SESSION_ABSOLUTE_HOURS);
    return user;
  };

  route(app, authEndpoints.login, signInOptions, (request, reply) =>
    signIn(request, reply, request.body, false),
  );

  route(app, authEndpoints.adminLogin, signInOptions, (request, reply) =>
    signIn(request, reply, request.body, true),
  );

  route(app, authEndpoints.register, signInOptions, async (request, reply) => {
    const { user, token } = await withTransaction(ctx, (tx) =>
      register(tx, request.body, signInMeta(request)),
    );
    setSessionCookie(request, reply, token, ctx.config.SESSION_ABSOLUTE_HOURS);
    return user;
  });

  // Public so that a browser with an already-expired session can still clear its cookie.
  route(app, authEndpoints.logout, { access: 'public', tags }, async (request, reply) => {
    const { session } = request;
    if (session) await withTransaction(ctx, (tx) => logout(tx, session.id, actorOf(request)));
    clearSessionCookie(request, reply);
    return { ok: true as const };
  });

  route(app, authEndpoints.user, { access: 'signedIn', tags }, async (request) => {
    if (!request.session) throw unauthorized();
    return toUser(request.session.user);
  });
}
