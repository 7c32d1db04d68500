import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/contracts/api';
import { PERMISSIONS, ROLES, roleRank } from '../../src/contracts/roles';
import type { RouteEntry } from '../../src/server/plugins/access';
import { startTestApp, TEST_PASSWORD, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

/** API.md: the only mutating routes a browser may call without the CSRF header. */
const CSRF_EXEMPT = [
  'POST /api/login',
  'POST /api/admin-login',
  'POST /api/register',
  // Portal and investor sign-in (API.md): rate limited instead; sign-in renews the CSRF pair.
  'POST /api/portal/otp',
  'POST /api/portal/login',
  'POST /api/investor/login',
  // Provider webhooks: not browser calls; they carry the callback token instead.
  'POST /api/webhooks/mpesa/c2b/confirmation',
  'POST /api/webhooks/mpesa/c2b/validation',
  'POST /api/webhooks/mpesa/stk/callback',
  // A lock API's acknowledgement: signed with the shared secret (HMAC over the raw body).
  'POST /api/webhooks/device-control/ack',
  // OpenPAYGO Metrics: devices sign their requests with their key (decision 029).
  'POST /api/openpaygo/device_data',
  // WhatsApp Cloud API (X-Hub-Signature-256 over the raw body) and the SMS gateway's inbound messages (token).
  'POST /api/webhooks/whatsapp',
  'POST /api/webhooks/sms/inbound',
  // The SMS gateway's delivery reports (the token in the callback URL).
  'POST /api/webhooks/sms/status',
];

/** A staff permission (not public, any staff session, or a customer's or investor's session). */
const STAFF_PERMISSION = (access: RouteEntry['access']) =>
  !['public', 'signedIn', 'customer', 'investor'].includes(access);

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const concrete = (url: string) => url.replace(/:\w+/g, SAMPLE_ID);
const key = (route: RouteEntry) => `${route.method} ${route.url}`;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * These tests walk the live route table, so every route a later module adds is checked
 * automatically: CSRF on every mutating route, sign-in on every non-public route, and the role
 * guard on every route that names a permission.
 */
describe.each(DATABASE_KINDS)('route guards on %s', (kind) => {
  let t: TestApp;
  let routes: RouteEntry[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    routes = t.app.routeTable;
  });
  afterAll(() => t.close());

  const send = (client: TestClient, route: RouteEntry, csrf: boolean) =>
    client.request(route.method as Method, concrete(route.url), route.method === 'GET' ? undefined : {}, {
      csrf,
    });

  it('has an access rule on every /api route and exempts only the documented routes from CSRF', () => {
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) expect(route.access, key(route)).toBeTruthy();
    const exempt = routes.filter((route) => route.method !== 'GET' && !route.csrf).map(key);
    expect(exempt.sort()).toEqual([...CSRF_EXEMPT].sort());
  });

  it('registers exactly the endpoints described in src/contracts/api.ts, each with its described schemas', () => {
    const described = new Map(allEndpoints().map((e) => [`${e.method} ${e.path}`, e]));
    const registered = routes.filter((route) => !route.url.startsWith('/api/docs'));
    expect(registered.map(key).filter((name) => !described.has(name))).toEqual([]);
    expect([...described.keys()].filter((name) => !registered.some((r) => key(r) === name))).toEqual([]);
    for (const route of registered) {
      const endpoint = described.get(key(route));
      const schema = route.schema as Record<string, unknown> & { response?: Record<number, unknown> };
      expect(schema.params, `${key(route)} params`).toBe(endpoint?.params);
      expect(schema.querystring, `${key(route)} query`).toBe(endpoint?.query);
      expect(schema.headers, `${key(route)} headers`).toBe(endpoint?.headers);
      if (endpoint?.body !== 'multipart') expect(schema.body, `${key(route)} body`).toBe(endpoint?.body);
      if (endpoint?.response !== 'file')
        expect(schema.response?.[endpoint?.status ?? 200], `${key(route)} response`).toBe(endpoint?.response);
      if (endpoint?.alsoStatus)
        expect(schema.response?.[endpoint.alsoStatus], `${key(route)} ${endpoint.alsoStatus}`).toBe(
          endpoint.response,
        );
    }
  });

  it('refuses every mutating route without a valid CSRF token with 403, signed in as an admin or signed out', async () => {
    const owner = await t.signedIn('admin');
    const mutating = routes.filter((route) => route.method !== 'GET' && route.csrf);
    expect(mutating.length).toBeGreaterThan(0);
    for (const route of mutating) {
      for (const client of [owner, t.client()]) {
        const missing = await send(client, route, false);
        expect(missing.statusCode, `${key(route)} without token`).toBe(403);
        expect(missing.json().code).toBe('CSRF');
        const forged = await client.request(
          route.method as Method,
          concrete(route.url),
          {},
          {
            csrf: false,
            headers: { 'x-csrf-token': 'forged-token' },
          },
        );
        expect(forged.statusCode, `${key(route)} with a forged token`).toBe(403);
      }
    }
  });

  it('does not accept the token of another browser', async () => {
    const first = t.client();
    const second = await t.signedIn('admin');
    const stolen = await first.csrf();
    const response = await second.post(
      '/api/invites',
      { role: 'viewer' },
      { csrf: false, headers: { 'x-csrf-token': stolen } },
    );
    expect(response.statusCode).toBe(403);
  });

  it("refuses an attacker's own cookie and token pair planted in a victim's session, on every mutating route", async () => {
    const attacker = await t.signedIn('agent');
    const token = await attacker.csrf();
    const plantedCookie = attacker.cookies.get('csrf') ?? '';
    const victim = await t.signedIn('admin');
    victim.cookies.set('csrf', plantedCookie);
    for (const route of routes.filter((r) => r.method !== 'GET' && r.csrf)) {
      const response = await victim.request(
        route.method as Method,
        concrete(route.url),
        {},
        {
          csrf: false,
          headers: { 'x-csrf-token': token },
        },
      );
      expect(response.statusCode, key(route)).toBe(403);
    }
    // The same pair signed out does not pass either once the victim signs in.
    const anonymous = t.client();
    const signedOutToken = await anonymous.csrf();
    const later = await t.signedIn('admin');
    later.cookies.set('csrf', anonymous.cookies.get('csrf') ?? '');
    const planted = await later.post(
      '/api/invites',
      { role: 'viewer' },
      { csrf: false, headers: { 'x-csrf-token': signedOutToken } },
    );
    expect(planted.statusCode).toBe(403);
  });

  it('renews the CSRF pair at sign-in: a token from before no longer passes, a fresh one does', async () => {
    const client = t.client();
    const before = await client.csrf();
    const email = (await t.signedIn('admin')).user.email;
    await client.post('/api/logout');
    const signedIn = await client.post('/api/login', { email, password: TEST_PASSWORD });
    expect(signedIn.statusCode).toBe(200);
    const stale = await client.post(
      '/api/invites',
      { role: 'viewer' },
      { csrf: false, headers: { 'x-csrf-token': before } },
    );
    expect(stale.statusCode).toBe(403);
    expect((await client.post('/api/invites', { role: 'viewer' })).statusCode).toBe(201);
  });

  it('answers 401 on every non-public route when signed out', async () => {
    const anonymous = t.client();
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const response = await send(anonymous, route, true);
      expect(response.statusCode, key(route)).toBe(401);
    }
  });

  it('refuses every role below a route’s permission with 403, and lets the role that holds it through', async () => {
    const clients = Object.fromEntries(
      await Promise.all(ROLES.map(async (role) => [role, await t.signedIn(role)] as const)),
    );
    const guarded = routes.filter((route) => STAFF_PERMISSION(route.access));
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const needed = PERMISSIONS[route.access as keyof typeof PERMISSIONS];
      for (const role of ROLES) {
        const response = await send(clients[role] as TestClient, route, true);
        const refusedByRole = response.statusCode === 403 && response.json().code === 'ROLE_FORBIDDEN';
        expect(refusedByRole, `${key(route)} as ${role} (needs ${needed}): ${response.statusCode}`).toBe(
          roleRank(role) < roleRank(needed),
        );
        expect(response.statusCode, `${key(route)} as ${role}`).not.toBe(500);
      }
    }
  });

  it('answers a staff session with 401 on every customer and investor route (their own sessions only)', async () => {
    const admin = await t.signedIn('admin');
    const guest = routes.filter((r) => r.access === 'customer' || r.access === 'investor');
    for (const route of guest) {
      const response = await send(admin, route, true);
      expect(response.statusCode, key(route)).toBe(401);
    }
  });

  it('lets an owner whose role is low through every permission', async () => {
    // The owner passes every check whatever the role column says.
    const owner = await t.signedIn('viewer', { isOwner: true });
    for (const route of routes.filter((r) => STAFF_PERMISSION(r.access))) {
      const response = await send(owner, route, true);
      expect(response.json().code, key(route)).not.toBe('ROLE_FORBIDDEN');
    }
  });
});
