import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { type DemoCredential, resetDemoPasswords, seedDemoUsers } from '../../src/server/demo/users';
import { verifyAuditChain } from '../../src/server/modules/audit/chain';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('npm run demo:users on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const signIn = async ({ email, password }: Pick<DemoCredential, 'email' | 'password'>) => {
    const client = t.client();
    const response = await client.post('/api/login', { email, password });
    return { client, status: response.statusCode };
  };

  it('leaves an empty database empty unless demo data is asked for', async () => {
    expect(await resetDemoPasswords(t.app.ctx, { seedEmpty: false })).toEqual([]);
    const [count] = await queryRows<{ n: number }>(t.app.ctx.db, sql`SELECT count(*)::int AS n FROM users`);
    expect(count?.n).toBe(0);
  });

  it('gives every demo user a new password, ends their sessions, audits it, and touches no one else', async () => {
    const first = await seedDemoUsers(t.app.ctx);
    const manager = first.find((c) => c.role === 'manager') as DemoCredential;
    const signedIn = await signIn(manager);
    expect(signedIn.status).toBe(200);
    const colleague = await t.signedIn('finance');

    const again = await resetDemoPasswords(t.app.ctx, { seedEmpty: true });
    expect(again.map((c) => c.email)).toEqual(first.map((c) => c.email));
    const renewed = again.find((c) => c.email === manager.email) as DemoCredential;
    expect(renewed.password).not.toBe(manager.password);
    expect((await signIn(manager)).status).toBe(401);
    expect((await signIn(renewed)).status).toBe(200);
    // The old session is over; an account that is not a demo one keeps its own.
    expect((await signedIn.client.get('/api/user')).statusCode).toBe(401);
    expect((await colleague.get('/api/user')).statusCode).toBe(200);

    const audited = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'user.password_change'`,
    );
    expect(audited[0]?.n).toBe(again.length);
    expect((await verifyAuditChain(t.app.ctx)).ok).toBe(true);
  });
});
