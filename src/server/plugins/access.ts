import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { can, type Permission } from '../../contracts/roles';
import { forbidden, unauthorized } from '../errors';

/**
 * Who may call a route. Every /api route must declare one: the app refuses to start otherwise,
 * so a new module cannot forget its guard.
 * - 'public': anyone, signed in or not;
 * - 'signedIn': any active staff session;
 * - a permission name: a staff session whose role holds it (contracts/roles.ts);
 * - 'customer': a customer's portal session (guest-sessions.ts), never a staff one;
 * - 'investor': an investor's session with a live code, never a staff one.
 */
export type Access = 'public' | 'signedIn' | 'customer' | 'investor' | Permission;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * false on the few routes exempt from CSRF (API.md: login, register, webhooks...);
     * 'beacon' where the browser cannot set headers (navigator.sendBeacon): the token may come
     * in the `csrf` query parameter instead.
     */
    csrf?: boolean | 'beacon';
  }
}

/** Routes added by third-party plugins (API documentation) are public by nature. */
const PUBLIC_PLUGIN_PREFIXES = ['/api/docs'];

/** What the route table records of each /api route (tests walk it; so can documentation). */
export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
  csrf: boolean;
  schema: RouteOptions['schema'];
}

export function registerAccessRules(app: FastifyInstance, table: RouteEntry[]): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    if (route.config?.access) return;
    if (PUBLIC_PLUGIN_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
      route.config = { ...route.config, access: 'public' };
      return;
    }
    throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
  });
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || !route.config?.access) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      table.push({
        method,
        url: route.url,
        access: route.config.access,
        csrf: route.config.csrf !== false,
        schema: route.schema,
      });
    }
  });
}

export function checkAccess(request: FastifyRequest): void {
  const access = request.routeOptions.config.access;
  if (!access || access === 'public') return;
  if (access === 'customer') {
    if (!request.customerSession)
      throw unauthorized('Sign in with your phone number and the code we send you');
    return;
  }
  if (access === 'investor') {
    if (!request.investorSession) throw unauthorized('Sign in with your investor code');
    return;
  }
  const user = request.session?.user;
  if (!user) throw unauthorized();
  if (access === 'signedIn') return;
  if (!can(user, access)) throw forbidden(`Your role (${user.role}) does not allow this`, 'ROLE_FORBIDDEN');
}
