import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { z } from 'zod';
import { queryRows } from '../../src/db/client';
import type { RouteEntry } from '../../src/server/plugins/access';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { portalSignIn } from '../support/portal';

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const concrete = (url: string) => url.replace(/:\w+/g, SAMPLE_ID);
const key = (route: RouteEntry) => `${route.method} ${route.url}`;

const WRONG_TYPES: unknown[] = [12345, true, [], { nested: 'object' }, null, 'x'.repeat(10_000)];
const HOSTILE_STRINGS = ["'; DROP TABLE users; --", '<script>alert(1)</script>', "' OR '1'='1", '\u0000'];

function bodySchema(route: RouteEntry): z.ZodObject | undefined {
  const schema = (route.schema as { body?: ZodType } | undefined)?.body;
  if (!schema) return undefined;
  // Objects, possibly wrapped in a refinement.
  const inner = schema instanceof z.ZodObject ? schema : (schema as { def?: { in?: ZodType } }).def?.in;
  return schema instanceof z.ZodObject ? schema : inner instanceof z.ZodObject ? inner : undefined;
}

async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    t.app.ctx.db,
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table_name)}`,
    );
    counts[table_name] = Number(row?.n);
  }
  return counts;
}

/**
 * Walks every route with a request schema: missing, extra and wrong-typed fields, oversized and
 * malformed bodies, hostile strings. Each must be a 4xx with a message (never a 500) and must write nothing.
 */
describe.each(DATABASE_KINDS)('bad input on %s', (kind) => {
  let t: TestApp;
  let owner: TestClient;
  /** A customer's portal session: the portal's routes check their bodies only for a customer. */
  let customer: TestClient;
  let routes: RouteEntry[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await t.signedIn('admin', { isOwner: true });
    const phone = '+254712000999';
    const created = await owner.post('/api/customers', { firstName: 'Bad', lastName: 'Input', phone });
    expect(created.statusCode, created.body).toBe(201);
    customer = await portalSignIn(t, owner, phone);
    routes = t.app.routeTable.filter((route) => route.method !== 'GET' && bodySchema(route));
  });
  afterAll(() => t.close());

  const clientFor = (route: RouteEntry) => (route.access === 'customer' ? customer : owner);
  const send = (
    route: RouteEntry,
    body: unknown,
    options: { raw?: string | Buffer; headers?: Record<string, string> } = {},
  ) =>
    (route.access === 'customer' ? customer : owner).request(
      route.method as Method,
      concrete(route.url),
      body,
      options,
    );

  function expectClearRefusal(response: Awaited<ReturnType<typeof send>>, label: string) {
    expect(response.statusCode, `${label}: ${response.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, label).toBeLessThan(500);
    const body = response.json();
    expect(typeof body.message, label).toBe('string');
    expect(body.message.length, label).toBeGreaterThan(0);
  }

  it('covers every route with a body', () => {
    expect(routes.map(key)).toEqual(
      expect.arrayContaining(['POST /api/login', 'POST /api/register', 'POST /api/invites']),
    );
  });

  it('refuses a body with required fields missing, naming each field', async () => {
    const before = await rowCounts(t);
    for (const route of routes) {
      const schema = bodySchema(route);
      if (!schema || (route.schema as { body: ZodType }).body.safeParse({}).success) continue;
      const response = await send(route, {});
      expectClearRefusal(response, `${key(route)} {}`);
      expect(response.statusCode, key(route)).toBe(400);
      const required = Object.entries(schema.shape)
        .filter(([, field]) => !(field as ZodType).safeParse(undefined).success)
        .map(([name]) => name);
      const named = (response.json().errors ?? []).map((e: { field: string }) => e.field);
      expect(named, key(route)).toEqual(expect.arrayContaining(required));
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses unknown fields by name', async () => {
    const before = await rowCounts(t);
    // Provider callbacks keep fields the provider adds later instead of refusing the money (decision 020).
    for (const route of routes.filter((r) => !r.url.startsWith('/api/webhooks/'))) {
      const response = await send(route, { unexpectedField: 1 });
      expect(response.statusCode, key(route)).toBe(400);
      expect(response.json().errors, key(route)).toContainEqual({
        field: 'unexpectedField',
        message: 'Unknown field "unexpectedField"',
      });
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses wrong-typed fields, naming the field', async () => {
    const before = await rowCounts(t);
    for (const route of routes) {
      const schema = bodySchema(route);
      if (!schema) continue;
      for (const [name, field] of Object.entries(schema.shape)) {
        for (const value of WRONG_TYPES) {
          if ((field as ZodType).safeParse(value).success) continue;
          const response = await send(route, { [name]: value });
          expectClearRefusal(response, `${key(route)} ${name}=${JSON.stringify(value).slice(0, 20)}`);
          const named: string[] = (response.json().errors ?? []).map((e: { field: string }) => e.field);
          // The field itself, or a part of it (e.g. an unknown key inside a record field).
          expect(
            named.some((field) => field === name || field.startsWith(`${name}.`)),
            `${key(route)} ${name}: ${named.join(', ')}`,
          ).toBe(true);
        }
      }
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses a 3 MB body with 413, malformed JSON with 400, and other content types with 415', async () => {
    const before = await rowCounts(t);
    const huge = JSON.stringify({ email: 'a@b.co', padding: 'x'.repeat(3 * 1024 * 1024) });
    for (const route of routes) {
      const big = await send(route, undefined, {
        raw: huge,
        headers: { 'content-type': 'application/json' },
      });
      expectClearRefusal(big, `${key(route)} 3 MB`);
      expect(big.statusCode).toBe(413);
      const malformed = await send(route, undefined, {
        raw: '{"email": ',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.statusCode, key(route)).toBe(400);
      expect(malformed.json().message).toBe('Request body is not valid JSON');
      const text = await send(route, undefined, {
        raw: 'email=a',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.statusCode, key(route)).toBe(415);
      const notObject = await send(route, [1, 2, 3]);
      expectClearRefusal(notObject, `${key(route)} array body`);
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('treats SQL and script strings as plain data: never a 500, never executed', async () => {
    for (const route of routes) {
      const schema = bodySchema(route);
      if (!schema) continue;
      for (const name of Object.keys(schema.shape)) {
        for (const hostile of HOSTILE_STRINGS) {
          const response = await send(route, { [name]: hostile });
          expect(response.statusCode, `${key(route)} ${name}=${hostile}`).toBeLessThan(500);
        }
      }
    }
    // A hostile but valid name is stored verbatim and returned as data.
    const invite = (await owner.post('/api/invites', { role: 'agent' })).json();
    const created = await t.client().post('/api/register', {
      email: 'hostile@example.com',
      password: 'long enough password',
      firstName: "Robert'); DROP TABLE users;--",
      lastName: '<script>alert(1)</script>',
      inviteToken: invite.token,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      firstName: "Robert'); DROP TABLE users;--",
      lastName: '<script>alert(1)</script>',
    });
    expect((await owner.get('/api/users')).statusCode).toBe(200);
  });

  it('refuses malformed path parameters and query strings with 400', async () => {
    for (const route of t.app.routeTable.filter((r) => r.url.includes(':'))) {
      const response = await clientFor(route).request(
        route.method as Method,
        route.url.replace(/:\w+/g, 'not-an-id'),
        route.method === 'GET' ? undefined : {},
      );
      expect(response.statusCode, key(route)).toBe(400);
    }
    expect((await t.client().get('/api/invites/lookup')).statusCode).toBe(400);
    expect((await t.client().get('/api/invites/lookup?token=')).json().errors[0].field).toBe('token');
    expect((await t.client().get('/api/invites/lookup?token=x&extra=1')).statusCode).toBe(400);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await owner.request(method, '/api/does-not-exist');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'NOT_FOUND',
        message: `No such endpoint: ${method} /api/does-not-exist`,
      });
    }
  });
});
