import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { foldPaymentCounts } from '../../src/server/modules/payments/counts';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activeContract } from '../support/origination';

/** Issue 13 §1–3: posting, allocation, replays, corrections. */
describe.each(DATABASE_KINDS)('payments on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let finance: TestClient;
  let finance2: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    finance = await t.signedIn('finance');
    finance2 = await t.signedIn('finance');
  });
  afterAll(() => t.close());

  const active = (control: 'none' | 'openpaygo' | 'lock_api' = 'none') =>
    activeContract(t, { agent, manager, reviewer: checker }, control);

  async function trialBalanceNets(): Promise<void> {
    const [row] = await queryRows<{ debit: string; credit: string }>(
      t.app.ctx.db,
      sql`SELECT COALESCE(sum(debit), 0) AS debit, COALESCE(sum(credit), 0) AS credit FROM journal_lines`,
    );
    expect(Number(row?.debit)).toBe(Number(row?.credit));
  }

  it('posts a cash payment: allocation lines sum to the amount, the contract figures move, a receipt number', async () => {
    const contract = await active();
    const res = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 40_000,
      method: 'cash',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.payment).toMatchObject({
      amount: 40_000,
      status: 'posted',
      method: 'cash',
      contractNumber: contract.number,
    });
    expect(body.payment.receiptNumber).toMatch(/^R-/);
    const sum = body.allocations.reduce((s: number, l: { amount: number }) => s + l.amount, 0);
    expect(sum).toBe(40_000);
    expect(body.allocations[0]).toMatchObject({
      installmentNumber: 1,
      component: 'fee' === body.allocations[0].component ? 'fee' : 'interest',
    });
    const after = (await agent.get(`/api/contracts/${contract.id}`)).json();
    expect(after.outstanding.total).toBe(contract.outstanding.total - 40_000);
    expect(after.paidThroughDate > contract.paidThroughDate).toBe(true);
    await trialBalanceNets();
  });

  it('posts concurrent payments in batches whose statements do not grow with their size, each answering what GET /api/payments/:id reads', async () => {
    const contracts: Awaited<ReturnType<typeof active>>[] = [];
    for (let i = 0; i < 12; i += 1) contracts.push(await active());
    await finance.get(`/api/contracts/${contracts[0]?.id}`); // the session is cached from here (decision 001)
    // The audit sealer's runs (decision 023: a sweep every few seconds, and one after each audited
    // commit) are not the payments': it is held while the statements are counted.
    const resume = await t.app.auditSealer.pause();
    const seen: string[] = [];
    const stop = t.db.database.watchStatements((statement) => seen.push(statement));
    const responses = await Promise.all(
      contracts.map((contract) =>
        finance.post(
          '/api/payments',
          { contractId: contract.id, amount: 5_000, method: 'bank_transfer', reference: `N-${contract.id}` },
          { headers: { 'idempotency-key': `n-${contract.id}` } },
        ),
      ),
    );
    stop();
    resume();
    for (const res of responses) expect(res.statusCode, res.body).toBe(201);
    // Decision 044: the first payment goes at once, alone; the others arrive while it is under
    // way and wait for the next batch, which takes every one waiting. Each batch writes the
    // payments table once, and the alone path would write it once per payment.
    // (The embedded database is one connection: there the requests' own reads queue behind each
    // batch, so they arrive one by one, and each batch is one payment.)
    const batches = seen.filter((statement) => /INSERT INTO "payments"/.test(statement)).length;
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThanOrEqual(kind === 'postgres' ? 4 : contracts.length);
    // About the statements of one payment per batch, whatever its size (BEGIN and COMMIT, and the
    // cache notifications sent after commits, decision 024, left out).
    const statements = seen.filter(
      (statement) => !/^SELECT pg_notify\(/.test(statement) && !/^(begin|commit)\b/i.test(statement),
    );
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(batches * 6);
    for (const res of responses)
      expect(res.json()).toEqual((await finance.get(`/api/payments/${res.json().payment.id}`)).json());
    // A payment that answers a controlled unit takes the longer path on its own, with the same answer.
    const unit = await active('openpaygo');
    const tokened = await agent.post('/api/payments', {
      contractId: unit.id,
      amount: 40_000,
      method: 'cash',
    });
    expect(tokened.statusCode).toBe(201);
    expect(tokened.json().payment.token).not.toBeNull();
    expect(tokened.json()).toEqual((await agent.get(`/api/payments/${tokened.json().payment.id}`)).json());
    await trialBalanceNets();
  });

  it('turns what exceeds the whole balance into customer credit and pays the contract off', async () => {
    const contract = await active();
    const res = await finance.post('/api/payments', {
      contractId: contract.id,
      amount: contract.outstanding.total + 1_000,
      method: 'bank_transfer',
      reference: `BT-${contract.id}`,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().allocations.at(-1)).toEqual({
      installmentNumber: null,
      component: 'credit',
      amount: 1_000,
    });
    const after = (await agent.get(`/api/contracts/${contract.id}`)).json();
    expect(after.status).toBe('paid_off');
    expect(after.outstanding.total).toBe(0);
    const again = await agent.post('/api/payments', { contractId: contract.id, amount: 100, method: 'cash' });
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toBe('CONTRACT_NOT_ACTIVE');
    await trialBalanceNets();
  });

  it('replays: the same key or reference answers 200 with the first result; a reused key with another body is a 409', async () => {
    const contract = await active();
    const body = {
      contractId: contract.id,
      amount: 5_000,
      method: 'mobile_money',
      reference: `MM-${contract.id}`,
    };
    const first = await finance.post('/api/payments', body, {
      headers: { 'idempotency-key': `k-${contract.id}` },
    });
    expect(first.statusCode).toBe(201);
    const byKey = await finance.post('/api/payments', body, {
      headers: { 'idempotency-key': `k-${contract.id}` },
    });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().payment.id).toBe(first.json().payment.id);
    const byRef = await finance.post('/api/payments', body);
    expect(byRef.statusCode).toBe(200);
    expect(byRef.json().payment.id).toBe(first.json().payment.id);
    const other = await finance.post(
      '/api/payments',
      { ...body, amount: 6_000 },
      { headers: { 'idempotency-key': `k-${contract.id}` } },
    );
    expect(other.statusCode).toBe(409);
  });

  it('answers the same reference sent at once to two contracts with one payment and a 409, and on one contract with one payment twice', async () => {
    const [a, b] = [await active(), await active()];
    const body = { amount: 7_000, method: 'bank_transfer', reference: `RACE-${a.id}` };
    const across = await Promise.all([
      finance.post('/api/payments', { ...body, contractId: a.id }),
      finance2.post('/api/payments', { ...body, contractId: b.id }),
    ]);
    expect(across.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(across.find((r) => r.statusCode === 409)?.json().code).toBe('REFERENCE_USED');
    const same = { ...body, contractId: a.id, reference: `RACE2-${a.id}` };
    const twice = await Promise.all([
      finance.post('/api/payments', same),
      finance2.post('/api/payments', same),
    ]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    expect(twice[0]?.json().payment.id).toBe(twice[1]?.json().payment.id);
    await trialBalanceNets();
  });

  it('refuses bad input with a clear 4xx and writes nothing', async () => {
    const contract = await active();
    for (const amount of [-1, 0, 1.5, '100']) {
      const res = await agent.post('/api/payments', { contractId: contract.id, amount, method: 'cash' });
      expect(res.statusCode).toBe(400);
    }
    const unknown = await agent.post('/api/payments', {
      contractId: '00000000-0000-4000-8000-000000000000',
      amount: 100,
      method: 'cash',
    });
    expect(unknown.statusCode).toBe(404);
    const agentMm = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 100,
      method: 'mobile_money',
    });
    expect(agentMm.statusCode).toBe(403);
    const [row] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM payments WHERE contract_id = ${contract.id} AND method <> 'deposit'`,
    );
    expect(row?.n).toBe(0);
  });

  it('reverses with maker-checker: the maker cannot approve; approval re-runs the allocation and keeps history', async () => {
    const contract = await active();
    const p1 = (
      await agent.post('/api/payments', { contractId: contract.id, amount: 10_000, method: 'cash' })
    ).json();
    const p2 = (
      await agent.post('/api/payments', { contractId: contract.id, amount: 20_000, method: 'cash' })
    ).json();
    const request = await finance.post(`/api/payments/${p1.payment.id}/reverse`, {
      reason: 'Counterfeit notes',
    });
    expect(request.statusCode).toBe(201);
    const correction = request.json();
    expect(correction.status).toBe('pending');
    const again = await finance2.post(`/api/payments/${p1.payment.id}/reverse`, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    const self = await finance.post(`/api/payment-corrections/${correction.id}/approve`, {});
    expect(self.statusCode).toBe(403);
    const ok = await finance2.post(`/api/payment-corrections/${correction.id}/approve`, {});
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe('approved');
    const reversed = (await agent.get(`/api/payments/${p1.payment.id}`)).json();
    expect(reversed.payment.status).toBe('reversed');
    expect(reversed.allocations).toEqual([]);
    // p2 now pays from the first instalment's start, exactly as if p1 never was.
    const moved = (await agent.get(`/api/payments/${p2.payment.id}`)).json();
    expect(moved.allocations.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBe(20_000);
    const after = (await agent.get(`/api/contracts/${contract.id}`)).json();
    expect(after.outstanding.total).toBe(contract.outstanding.total - 20_000);
    await trialBalanceNets();
  });

  it('answers the list’s totals from the kept counts, as counting the payments does, through postings, a reversal and a fold', async () => {
    const contract = await active();
    const paid = [];
    for (const method of ['cash', 'cash', 'bank_transfer']) {
      const res = await finance.post('/api/payments', { contractId: contract.id, amount: 3_000, method });
      expect(res.statusCode, res.body).toBe(201);
      paid.push(res.json());
    }
    const request = await finance.post(`/api/payments/${paid[0].payment.id}/reverse`, {
      reason: 'Entered twice',
    });
    expect(
      (await finance2.post(`/api/payment-corrections/${request.json().id}/approve`, {})).statusCode,
    ).toBe(200);
    const counted = async (where: ReturnType<typeof sql>) =>
      Number(
        (
          await queryRows<{ n: number }>(
            t.app.ctx.db,
            sql`SELECT count(*)::int AS n FROM payments WHERE ${where}`,
          )
        )[0]?.n,
      );
    const cases: Array<[string, ReturnType<typeof sql>]> = [
      ['', sql`true`],
      ['status=posted', sql`status = 'posted'`],
      ['status=reversed', sql`status = 'reversed'`],
      ['method=cash', sql`method = 'cash'`],
      ['status=posted&method=cash', sql`status = 'posted' AND method = 'cash'`],
      [`contractId=${contract.id}`, sql`contract_id = ${contract.id}`],
    ];
    const check = async () => {
      for (const [query, where] of cases) {
        const total = (await finance.get(`/api/payments?${query}`)).json<{ total: number }>().total;
        expect(total, query).toBe(await counted(where));
      }
    };
    await check();
    expect(await counted(sql`contract_id = ${contract.id} AND status = 'reversed'`)).toBe(1);
    // The sessions' rows fold into shard 0 (the close does it nightly), and the totals stay.
    expect(await foldPaymentCounts(t.app.ctx.db)).toBeGreaterThan(0);
    const [left] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM payment_counts WHERE shard <> 0`,
    );
    expect(left?.n).toBe(0);
    await check();
    // And they keep counting after the fold.
    expect(
      (await agent.post('/api/payments', { contractId: contract.id, amount: 3_000, method: 'cash' }))
        .statusCode,
    ).toBe(201);
    await check();
  });

  it('keeps a payments page for the payments table’s version: a payment, a reversal, a rename and a fold each read right at once', async () => {
    const contract = await active();
    const version = async () =>
      Number(
        (
          await queryRows<{ n: string }>(
            t.app.ctx.db,
            sql`SELECT coalesce(sum(n), 0) AS n FROM payment_changes`,
          )
        )[0]?.n,
      );
    const page = async () =>
      (await finance.get(`/api/payments?contractId=${contract.id}&pageSize=50`)).json<{
        total: number;
        items: Array<{ id: string; status: string; customerId: string | null; customerName: string | null }>;
      }>();
    const first = await page();
    const pay = async () => {
      const res = await finance.post('/api/payments', {
        contractId: contract.id,
        amount: 2_000,
        method: 'cash',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ payment: { id: string } }>().payment.id;
    };
    // Read twice unchanged: the same version, the same page.
    const before = await version();
    expect(await page()).toEqual(first);
    expect(await version()).toBe(before);
    // A payment moves the version, and the page read next shows it (the test clock stands still:
    // same-time payments are ordered by id).
    const paid = await pay();
    expect(await version()).toBeGreaterThan(before);
    const afterPayment = await page();
    expect(afterPayment.total).toBe(first.total + 1);
    expect(afterPayment.items.map((p) => p.id)).toContain(paid);
    // A reversal updates the row: the page shows it reversed.
    const request = await finance.post(`/api/payments/${paid}/reverse`, { reason: 'Wrong contract' });
    expect(request.statusCode, request.body).toBe(201);
    expect((await checker.post(`/api/payment-corrections/${request.json().id}/approve`, {})).statusCode).toBe(
      200,
    );
    expect((await page()).items.find((p) => p.id === paid)?.status).toBe('reversed');
    // A rename of the customer (another table the page shows) evicts it.
    const customerId = afterPayment.items.find((p) => p.id === paid)?.customerId;
    const customer = (await agent.get(`/api/customers/${customerId}`)).json<{
      firstName: string;
      version: number;
    }>();
    const renamed = `Paged${process.pid}`;
    const patched = await agent.patch(`/api/customers/${customerId}`, {
      lastName: renamed,
      version: customer.version,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await page()).items.find((p) => p.id === paid)?.customerName).toBe(
      `${customer.firstName} ${renamed}`,
    );
    // The close's fold keeps the version (the pages kept stay right), and it moves on after.
    const folded = await version();
    await foldPaymentCounts(t.app.ctx.db);
    const [left] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM payment_changes WHERE shard <> 0`,
    );
    expect(left?.n).toBe(0);
    expect(await version()).toBe(folded);
    const again = await pay();
    expect(await version()).toBeGreaterThan(folded);
    const last = await page();
    expect(last.total).toBe(afterPayment.total + 1);
    expect(last.items.map((p) => p.id)).toContain(again);
  });

  it('serialises 50 parallel payments on one contract: totals exact, allocations sum to payments', async () => {
    const contract = await active();
    // Half carry keys of their own: a keyed payment whose contract changed after its read (decision
    // 036) must leave no claim behind when it goes the transactional way.
    const keyOf = (i: number) => (i % 2 ? { headers: { 'idempotency-key': `p-${contract.id}-${i}` } } : {});
    const body = { contractId: contract.id, amount: 1_000, method: 'cash' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => agent.post('/api/payments', body, keyOf(i))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(201));
    const [keys] = await queryRows<{ claimed: number; orphans: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS claimed,
          (count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = k.resource_id)))::int AS orphans
        FROM idempotency_keys k WHERE k.key LIKE ${`p-${contract.id}-%`}`,
    );
    expect(keys).toEqual({ claimed: 25, orphans: 0 });
    const replay = await agent.post('/api/payments', body, keyOf(7));
    expect(replay.statusCode).toBe(200);
    expect(replay.json().payment.id).toBe(answers[7]?.json().payment.id);
    const [row] = await queryRows<{ paid: string; allocated: string }>(
      t.app.ctx.db,
      sql`SELECT (SELECT sum(amount) FROM payments WHERE contract_id = ${contract.id} AND method <> 'deposit') AS paid,
        (SELECT sum(amount) FROM payment_allocations WHERE contract_id = ${contract.id} AND superseded_at IS NULL) AS allocated`,
    );
    expect(Number(row?.paid)).toBe(50_000);
    expect(Number(row?.allocated)).toBe(50_000);
    const after = (await agent.get(`/api/contracts/${contract.id}`)).json();
    expect(after.outstanding.total).toBe(contract.outstanding.total - 50_000);
    await trialBalanceNets();
  });

  it('answers 100 concurrent replays of one keyed payment with one posting', async () => {
    const contract = await active();
    const body = { contractId: contract.id, amount: 3_000, method: 'cash', reference: `C-${contract.id}` };
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        agent.post('/api/payments', body, { headers: { 'idempotency-key': `r-${contract.id}` } }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(99);
    const [row] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM payments WHERE contract_id = ${contract.id} AND method = 'cash'`,
    );
    expect(row?.n).toBe(1);
  });

  it('issues an ADD_TIME token for the days an OpenPAYGO payment buys', async () => {
    const contract = await active('openpaygo');
    const res = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 32_000,
      method: 'cash',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().payment.token).toMatchObject({
      type: 'ADD_TIME',
      token: expect.stringMatching(/^\d{9}$/),
    });
    expect(res.json().payment.token.days).toBeGreaterThan(20);
  });
});

/** Issue 13 §2 and §9: a payment that clears arrears unlocks at once; dates follow the business date. */
describe.each(DATABASE_KINDS)('payments after days pass on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let admin: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { BUSINESS_DATE_CONTROL: 'true' } });
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    admin = await t.signedIn('admin');
  });
  afterAll(() => t.close());

  async function moveDays(days: number): Promise<void> {
    const now = (await admin.get('/api/business-date')).json();
    const next = new Date(Date.parse(`${now.businessDate}T00:00:00Z`) + days * 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect((await admin.put('/api/business-date', { businessDate: next })).statusCode).toBe(200);
  }

  it('queues an unlock for a locked lock-API unit when a payment clears its arrears, in the same transaction', async () => {
    const contract = await activeContract(t, { agent, manager, reviewer: checker }, 'lock_api');
    await moveDays(40);
    const late = (await agent.get(`/api/contracts/${contract.id}`)).json();
    expect(late.dpd).toBeGreaterThan(0);
    await t.app.ctx.db.execute(
      sql`UPDATE devices SET lock_state = 'locked' WHERE id = ${contract.device.id}`,
    );
    const partial = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 1_000,
      method: 'cash',
    });
    expect(partial.statusCode).toBe(201);
    const none = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM device_commands WHERE device_id = ${contract.device.id}`,
    );
    expect(none[0]?.n).toBe(0);
    const res = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 40_000,
      method: 'cash',
    });
    expect(res.statusCode).toBe(201);
    const commands = await queryRows<{ kind: string; state: string; source_id: string }>(
      t.app.ctx.db,
      sql`SELECT kind, state, source_id FROM device_commands WHERE device_id = ${contract.device.id}`,
    );
    expect(commands).toEqual([{ kind: 'unlock', state: 'queued', source_id: res.json().payment.id }]);
    const after = (await agent.get(`/api/contracts/${contract.id}`)).json();
    expect(after.dpd).toBe(0);
  });

  it('gives an OpenPAYGO unit whose time ran out the days paid for, counted from the business date', async () => {
    const contract = await activeContract(t, { agent, manager, reviewer: checker }, 'openpaygo');
    await moveDays(45);
    // As a close of business records a unit whose time ran out (decision 050).
    await t.app.ctx.db.execute(
      sql`UPDATE devices SET lock_state = 'locked' WHERE id = ${contract.device.id}`,
    );
    const res = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 33_000,
      method: 'cash',
    });
    expect(res.statusCode).toBe(201);
    const payment = res.json().payment;
    expect(payment.valueDate).toBe((await admin.get('/api/business-date')).json().businessDate);
    const after = (await agent.get(`/api/contracts/${contract.id}`)).json();
    const [device] = await queryRows<{ active_until: string }>(
      t.app.ctx.db,
      sql`SELECT active_until::text AS active_until FROM devices WHERE id = ${contract.device.id}`,
    );
    // Paid through the first instalment: the unit runs one period beyond it.
    expect(after.paidThroughDate >= String(contract.schedule[0]?.dueDate)).toBe(true);
    expect(String(device?.active_until) > payment.valueDate).toBe(true);
    expect(payment.token?.type).toBe('ADD_TIME');
    // The token runs the unit again: recorded unlocked.
    expect((await agent.get(`/api/devices/${contract.device.id}`)).json().lockState).toBe('unlocked');

    // Its time runs out again; the payment of the whole balance releases it for good, unlocked.
    await t.app.ctx.db.execute(
      sql`UPDATE devices SET lock_state = 'locked' WHERE id = ${contract.device.id}`,
    );
    const payoff = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: after.outstanding.total,
      method: 'cash',
    });
    expect(payoff.statusCode, payoff.body).toBe(201);
    expect(payoff.json().payment.token?.type).toBe('DISABLE_PAYG');
    expect((await agent.get(`/api/devices/${contract.device.id}`)).json().lockState).toBe('unlocked');
  });
});
