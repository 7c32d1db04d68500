import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { MAX_MONEY_INPUT } from '../../src/domain/money';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { approvedContract } from '../support/origination';

/** Issue 12 §2: money inputs. De-duplication scoped, replays exact, dates bounded, sizes capped, roles enforced. */
describe.each(DATABASE_KINDS)('deposits and money inputs on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let finance: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    finance = await t.signedIn('finance');
  });
  afterAll(() => t.close());

  const approved = () => approvedContract(t, { agent, manager, reviewer: checker });

  const deposit = (client: TestClient, id: string, body: Record<string, unknown>, key?: string) =>
    client.post(`/api/contracts/${id}/deposit`, body, key ? { headers: { 'idempotency-key': key } } : {});

  async function paymentsOf(contractId: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM payments WHERE contract_id = ${contractId}`,
    );
    return Number(row?.n);
  }

  it('refuses a reference already used on another contract with 409 naming it, instead of answering 200 and posting nothing', async () => {
    const a = await approved();
    const b = await approved();
    const body = { amount: 10_000, channel: 'mobile_money', reference: `REF-${a.id}` };
    expect((await deposit(finance, a.id, body)).statusCode).toBe(201);
    const reused = await deposit(finance, b.id, body);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({
      code: 'REFERENCE_USED',
      message: expect.stringContaining(a.number),
    });
    expect(await paymentsOf(b.id)).toBe(0);
    // The same reference through another channel of the same contract is not the same payment either.
    const otherChannel = await deposit(finance, a.id, { ...body, channel: 'bank_transfer' });
    expect(otherChannel.json().code).toBe('REFERENCE_USED');
    // The same reference, contract and channel is a replay: 200, nothing more posted.
    const replay = await deposit(finance, a.id, body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().depositReceived).toBe(10_000);
    expect(await paymentsOf(a.id)).toBe(1);
  });

  it('scopes an Idempotency-Key to the operation: the same key with another request is a 409, with the same one a replay', async () => {
    const a = await approved();
    const b = await approved();
    const key = `key-${a.id}`;
    expect((await deposit(agent, a.id, { amount: 5_000, channel: 'cash' }, key)).statusCode).toBe(201);
    const otherContract = await deposit(agent, b.id, { amount: 5_000, channel: 'cash' }, key);
    expect(otherContract.statusCode).toBe(409);
    expect(otherContract.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherAmount = await deposit(agent, a.id, { amount: 6_000, channel: 'cash' }, key);
    expect(otherAmount.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const replay = await deposit(agent, a.id, { amount: 5_000, channel: 'cash' }, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().depositReceived).toBe(5_000);
    expect(await paymentsOf(a.id)).toBe(1);
    expect(await paymentsOf(b.id)).toBe(0);
  });

  it('answers all 50 parallel deliveries of one keyed deposit with the first result: one 201, 49 replays, one payment', async () => {
    const a = await approved();
    const body = { amount: 25_000, channel: 'cash' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => deposit(agent, a.id, body, `parallel-${a.id}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(49);
    for (const answer of answers) expect(answer.json().depositReceived).toBe(25_000);
    expect(await paymentsOf(a.id)).toBe(1);
  });

  it('refuses a receivedAt in the future or before the contract was created', async () => {
    const a = await approved();
    const future = await deposit(agent, a.id, {
      amount: 1_000,
      channel: 'cash',
      receivedAt: '9999-12-31T00:00:00Z',
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().errors).toEqual([
      { field: 'receivedAt', message: 'receivedAt must not be in the future' },
    ]);
    const ancient = await deposit(agent, a.id, {
      amount: 1_000,
      channel: 'cash',
      receivedAt: '1900-01-01T00:00:00Z',
    });
    expect(ancient.statusCode).toBe(400);
    expect(ancient.json().errors[0].message).toMatch(
      /^receivedAt must not be before the contract was created/,
    );
    expect(await paymentsOf(a.id)).toBe(0);
  });

  it('lets an agent record cash only; a finance user records every channel', async () => {
    const a = await approved();
    for (const channel of ['mobile_money', 'bank_transfer', 'card']) {
      const refused = await deposit(agent, a.id, { amount: 1_000, channel, reference: `${channel}-${a.id}` });
      expect(refused.statusCode, channel).toBe(403);
      expect(refused.json().code).toBe('ROLE_FORBIDDEN');
    }
    expect(await paymentsOf(a.id)).toBe(0);
    expect((await deposit(agent, a.id, { amount: 1_000, channel: 'cash' })).statusCode).toBe(201);
    expect(
      (await deposit(finance, a.id, { amount: 1_000, channel: 'card', reference: `c-${a.id}` })).statusCode,
    ).toBe(201);
  });

  it('caps every money input so no derived figure overflows: 400 with a message, never a 500', async () => {
    const huge = await agent.get(
      '/api/calculator/quote?price=9007199254740991&deposit=0&apr=10&frequency=monthly&term=12',
    );
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors[0]).toMatchObject({
      field: 'price',
      message: expect.stringContaining('at most'),
    });
    const atCap = await agent.get(
      `/api/calculator/quote?price=${MAX_MONEY_INPUT}&deposit=0&apr=1000&frequency=monthly&term=3660`,
    );
    expect(atCap.statusCode).toBeLessThan(500);
    const a = await approved();
    const tooMuch = await deposit(agent, a.id, { amount: MAX_MONEY_INPUT + 1, channel: 'cash' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors[0].field).toBe('amount');
  });
});
