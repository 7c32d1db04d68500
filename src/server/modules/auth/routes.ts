import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  csrfTokenResponse,
  type LoginInput,
  loginBody,
  registerBody,
  userSchema,
} from '../../../contracts/auth';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { unauthorized } from '../../errors';
import { issueCsrfToken } from '../../plugins/csrf';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session';
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

  app.get(
    '/api/csrf-token',
    { config: { access: 'public' }, schema: { tags: ['auth'], response: { 200: csrfTokenResponse } } },
    async (request, reply) => ({ csrfToken: issueCsrfToken(request, reply, ctx.keyring) }),
  );

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

  app.post(
    '/api/login',
    {
      config: { access: 'public', csrf: false, rateLimit: AUTH_RATE_LIMIT },
      schema: { tags: ['auth'], body: loginBody, response: { 200: userSchema } },
    },
    (request, reply) => signIn(request, reply, request.body, false),
  );

  app.post(
    '/api/admin-login',
    {
      config: { access: 'public', csrf: false, rateLimit: AUTH_RATE_LIMIT },
      schema: { tags: ['auth'], body: loginBody, response: { 200: userSchema } },
    },
    (request, reply) => signIn(request, reply, request.body, true),
  );

  app.post(
    '/api/register',
    {
      config: { access: 'public', csrf: false, rateLimit: AUTH_RATE_LIMIT },
      schema: { tags: ['auth'], body: registerBody, response: { 201: userSchema } },
    },
    async (request, reply) => {
      const { user, token } = await withTransaction(ctx, (tx) =>
        register(tx, request.body, signInMeta(request)),
      );
      setSessionCookie(request, reply, token, ctx.config.SESSION_ABSOLUTE_HOURS);
      return reply.status(201).send(user);
    },
  );

  app.post(
    '/api/logout',
    {
      // Public so that a browser with an already-expired session can still clear its cookie.
      config: { access: 'public' },
      schema: { tags: ['auth'], response: { 200: z.object({ ok: z.literal(true) }) } },
    },
    async (request, reply) => {
      const { session } = request;
      if (session) await withTransaction(ctx, (tx) => logout(tx, session.id, actorOf(request)));
      clearSessionCookie(request, reply);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/user',
    { config: { access: 'signedIn' }, schema: { tags: ['auth'], response: { 200: userSchema } } },
    async (request) => {
      if (!request.session) throw unauthorized();
      return toUser(request.session.user);
    },
  );
}
