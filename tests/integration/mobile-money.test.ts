import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { FakeDaraja } from '../support/fake-daraja';
import { activeContract, approvedContract, setOrganisation } from '../support/origination';

const TOKEN = 'callback-token-for-the-tests-0123456789';
const CONFIRM = '/api/webhooks/mpesa/c2b/confirmation';
const VALIDATE = '/api/webhooks/mpesa/c2b/validation';
const STK = '/api/webhooks/mpesa/stk/callback';
const ACCEPTED = { ResultCode: 0, ResultDesc: 'Accepted' };

/** Daraja's TransTime: wall-clock time in Nairobi (UTC+3, no daylight saving). */
const nairobiTime = (at: number) =>
  new Date(at + 3 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);

let transCounter = 0;
const nextTransId = (prefix = 'TX') => {
  transCounter += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${transCounter}`;
};

/** A seeded shuffle, so a failing storm can be replayed. */
function shuffle<T>(items: T[], seed = 42): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function inPool<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
}

/** Issue 13: M-Pesa C2B callbacks, the suspense queue, STK push (PRODUCT.md section 7). */
describe.each(DATABASE_KINDS)('mobile money on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let finance: TestClient;
  let mpesa: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      env: { MPESA_CALLBACK_TOKEN: TOKEN, MPESA_SIMULATOR_DELAY_MS: '20', MPESA_SHORTCODE: '600000' },
    });
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    finance = await t.signedIn('finance');
    const admin = await t.signedIn('admin');
    await setOrganisation(admin, { country: 'KE', currency: 'KES', timeZone: 'Africa/Nairobi' });
    mpesa = t.client('196.201.214.200');
  }, 60_000);
  afterAll(() => t.close());

  // The test clock stands still: money arrives a little after the contract was activated.
  const active = async () => {
    const contract = await activeContract(t, { agent, manager, reviewer: checker });
    t.clock.advance(2_000);
    return contract;
  };

  const c2b = (over: Record<string, unknown> = {}) => ({
    TransactionType: 'Pay Bill',
    TransID: nextTransId(),
    TransTime: nairobiTime(t.clock.now().getTime()),
    TransAmount: '100.00',
    BusinessShortCode: '600000',
    BillRefNumber: '',
    InvoiceNumber: '',
    OrgAccountBalance: '49197.00',
    ThirdPartyTransID: '',
    MSISDN: '2547 ***** 126',
    FirstName: 'John',
    MiddleName: '',
    LastName: 'Doe',
    ...over,
  });

  const confirm = (body: unknown, token: string | null = TOKEN, client = mpesa) =>
    client.post(`${CONFIRM}${token === null ? '' : `?token=${encodeURIComponent(token)}`}`, body, {
      csrf: false,
    });

  const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(t.app.ctx.db, query))[0] as T;

  async function counts() {
    return one<{ payments: number; journal: number; audit: number; pushes: number }>(
      sql`SELECT (SELECT count(*)::int FROM payments) AS payments, (SELECT count(*)::int FROM journal_entries) AS journal,
        (SELECT count(*)::int FROM audit_log) AS audit, (SELECT count(*)::int FROM mobile_money_pushes) AS pushes`,
    );
  }

  /** Debits less credits on a ledger account. */
  async function balance(account: string): Promise<number> {
    const row = await one<{ net: string }>(
      sql`SELECT COALESCE(sum(debit - credit), 0) AS net FROM journal_lines WHERE account_code = ${account}`,
    );
    return Number(row.net);
  }

  async function trialBalanceNets(): Promise<void> {
    const row = await one<{ debit: string; credit: string }>(
      sql`SELECT COALESCE(sum(debit), 0) AS debit, COALESCE(sum(credit), 0) AS credit FROM journal_lines`,
    );
    expect(Number(row.debit)).toBe(Number(row.credit));
  }

  async function paymentByReference(reference: string) {
    const list = (await finance.get(`/api/payments?pageSize=100&q=${encodeURIComponent(reference)}`)).json();
    const found = list.items.filter((p: { reference: string }) => p.reference === reference);
    expect(found.length, reference).toBeLessThanOrEqual(1);
    return found[0];
  }

  it('posts a confirmation matched on the contract number (any case, spaces) and allocates it', async () => {
    const contract = await active();
    const body = c2b({
      BillRefNumber: ` ${contract.number.toLowerCase().replace('-', ' - ')} `,
      TransAmount: '150.00',
    });
    const res = await confirm(body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(ACCEPTED);
    const payment = await paymentByReference(body.TransID);
    expect(payment).toMatchObject({
      contractId: contract.id,
      amount: 15_000,
      currency: 'KES',
      method: 'mobile_money',
      provider: 'mpesa',
      status: 'posted',
      postedByName: null,
    });
    // TransTime is Nairobi wall-clock time.
    expect(payment.receivedAt).toBe(
      new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000).toISOString(),
    );
    const result = (await finance.get(`/api/payments/${payment.id}`)).json();
    expect(result.allocations.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBe(15_000);
    const after = (await finance.get(`/api/contracts/${contract.id}`)).json();
    expect(after.outstanding.total).toBe(contract.outstanding.total - 15_000);
    await trialBalanceNets();
  });

  it('matches on the device serial and on the customer’s phone (national or international form)', async () => {
    const bySerial = await active();
    const serial = bySerial.device.serialNumber.toLowerCase();
    const first = c2b({ BillRefNumber: serial });
    expect((await confirm(first)).json()).toEqual(ACCEPTED);
    expect((await paymentByReference(first.TransID)).contractId).toBe(bySerial.id);

    const byPhone = await active();
    const phone = byPhone.customer.phone; // +2547xxxxxxxx
    for (const typed of [`0${phone.slice(4)}`, phone.slice(1), `${phone.slice(0, 7)} ${phone.slice(7)}`]) {
      const body = c2b({ BillRefNumber: typed, TransAmount: '10.00' });
      expect((await confirm(body)).json()).toEqual(ACCEPTED);
      expect((await paymentByReference(body.TransID)).contractId, typed).toBe(byPhone.id);
    }
  });

  it('accepts a TransID again without writing anything more', async () => {
    const contract = await active();
    const body = c2b({ BillRefNumber: contract.number });
    expect((await confirm(body)).statusCode).toBe(200);
    const before = await counts();
    const again = await confirm(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(ACCEPTED);
    // The same receipt delivered with another reference (a provider retry) is still the first payment.
    expect((await confirm({ ...body, BillRefNumber: 'SOMETHING ELSE' })).json()).toEqual(ACCEPTED);
    expect(await counts()).toEqual(before);
    const rows = await one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM payments WHERE method = 'mobile_money' AND reference = ${body.TransID}`,
    );
    expect(rows.n).toBe(1);
  });

  it('refuses a wrong or missing token with 401 and writes nothing', async () => {
    const contract = await active();
    const before = await counts();
    for (const token of [null, '', 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1), TOKEN.toUpperCase()]) {
      for (const path of [CONFIRM, VALIDATE]) {
        const url = token === null ? path : `${path}?token=${encodeURIComponent(token)}`;
        const res = await mpesa.post(url, c2b({ BillRefNumber: contract.number }), { csrf: false });
        expect(res.statusCode, `${path} ${token}`).toBe(401);
        expect(res.json().message).toMatch(/callback token/);
      }
      const stk = await mpesa.post(
        token === null ? STK : `${STK}?token=${token}`,
        {
          Body: { stkCallback: { CheckoutRequestID: 'ws_CO_x', ResultCode: 1032, ResultDesc: 'Cancelled' } },
        },
        { csrf: false },
      );
      expect(stk.statusCode).toBe(401);
    }
    expect(await counts()).toEqual(before);
  });

  it('without a token configured refuses everything, except callers on the allow-list', async () => {
    const other = await startTestApp(kind, {
      shared: t.db,
      env: { MPESA_ALLOWED_IPS: '196.201.214.208, 10.99.0.1' },
    });
    try {
      const contract = await active();
      other.clock.ms = t.clock.ms;
      const before = await counts();
      for (const token of [null, TOKEN, 'undefined']) {
        const res = await other
          .client()
          .post(`${CONFIRM}${token ? `?token=${token}` : ''}`, c2b(), { csrf: false });
        expect(res.statusCode).toBe(401);
      }
      expect(await counts()).toEqual(before);
      const body = c2b({ BillRefNumber: contract.number });
      const allowed = await other.client('196.201.214.208').post(CONFIRM, body, { csrf: false });
      expect(allowed.statusCode, allowed.body).toBe(200);
      expect((await paymentByReference(body.TransID)).contractId).toBe(contract.id);
    } finally {
      await other.close();
    }
  });

  it('refuses malformed payloads with a 400 naming the field, and writes nothing', async () => {
    const contract = await active();
    const before = await counts();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ TransID: undefined }, 'TransID'],
      [{ TransID: 'has spaces in it' }, 'TransID'],
      [{ TransAmount: 'abc' }, 'TransAmount'],
      [{ TransAmount: '-5.00' }, 'TransAmount'],
      [{ TransAmount: '0.00' }, 'TransAmount'],
      [{ TransAmount: '1.005' }, 'TransAmount'],
      [{ TransAmount: '99999999999999999' }, 'TransAmount'],
      [{ TransTime: '20241301120000' }, 'TransTime'],
      [{ TransTime: '2024-01-01T12:00' }, 'TransTime'],
      [{ TransTime: undefined }, 'TransTime'],
      [{ BillRefNumber: { nested: true } }, 'BillRefNumber'],
    ];
    for (const [change, field] of cases) {
      const res = await confirm(c2b({ BillRefNumber: contract.number, ...change }));
      expect(res.statusCode, `${JSON.stringify(change)}: ${res.body}`).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const notJson = await mpesa.post(`${CONFIRM}?token=${TOKEN}`, undefined, {
      csrf: false,
      raw: '{"TransID": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('validation accepts a matched or unmatched reference, refuses a bad amount or another paybill, and writes nothing', async () => {
    const contract = await active();
    const before = await counts();
    const validate = (body: unknown) => mpesa.post(`${VALIDATE}?token=${TOKEN}`, body, { csrf: false });
    expect((await validate(c2b({ BillRefNumber: contract.number }))).json()).toEqual(ACCEPTED);
    expect((await validate(c2b({ BillRefNumber: 'NOBODY' }))).json()).toEqual(ACCEPTED);
    for (const TransAmount of ['0', '0.00', '1.001']) {
      const res = await validate(c2b({ TransAmount }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ResultCode: 'C2B00013', ResultDesc: 'Rejected' });
    }
    expect((await validate(c2b({ BusinessShortCode: '999999' }))).json().ResultCode).toBe('C2B00015');
    expect(await counts()).toEqual(before);
  });

  it('survives a webhook storm: 1,000 confirmations, 300 of them repeats, out of order and concurrent: each TransID once', async () => {
    const contracts = await Promise.all([active(), active(), active(), active()]);
    t.clock.advance(120_000);
    const run = `ST${Date.now().toString(36).toUpperCase()}`;
    const distinct = Array.from({ length: 700 }, (_, n) => {
      const matched = n < 100;
      const contract = contracts[n % contracts.length];
      return c2b({
        TransID: `${run}N${n}`,
        TransAmount: matched ? '5.00' : '1.00',
        BillRefNumber: matched ? contract?.number : `UNKNOWN-${n}`,
        TransTime: nairobiTime(t.clock.now().getTime() - 100_000 + n * 100),
      });
    });
    const repeats = shuffle(distinct).slice(0, 300);
    const deliveries = shuffle([...distinct, ...repeats], 7);
    expect(deliveries).toHaveLength(1_000);
    const suspenseBefore = await balance('2100');
    const answers = await inPool(deliveries, 40, (body) => confirm(body));
    const failures = answers.filter((a) => a.statusCode !== 200);
    expect(failures.map((f) => `${f.statusCode} ${f.body}`).slice(0, 3)).toEqual([]);
    expect(answers.every((a) => a.json().ResultCode === 0)).toBe(true);

    const rows = await queryRows<{
      reference: string;
      n: number;
      status: string;
      contract_id: string | null;
    }>(
      t.app.ctx.db,
      sql`SELECT reference, count(*)::int AS n, min(status) AS status, min(contract_id) AS contract_id
        FROM payments WHERE method = 'mobile_money' AND reference LIKE ${`${run}%`} GROUP BY reference`,
    );
    expect(rows).toHaveLength(700);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect(rows.filter((r) => r.status === 'posted')).toHaveLength(100);
    expect(rows.filter((r) => r.status === 'suspense')).toHaveLength(600);
    for (const contract of contracts) {
      const paid = await one<{ paid: string; allocated: string; total_paid: string }>(
        sql`SELECT (SELECT sum(amount) FROM payments WHERE contract_id = ${contract.id} AND method = 'mobile_money') AS paid,
          (SELECT sum(amount) FROM payment_allocations WHERE contract_id = ${contract.id} AND superseded_at IS NULL) AS allocated,
          (SELECT total_paid FROM contracts WHERE id = ${contract.id}) AS total_paid`,
      );
      expect(Number(paid.paid)).toBe(25 * 500);
      expect(Number(paid.allocated)).toBe(25 * 500);
      expect(Number(paid.total_paid)).toBe(25 * 500);
    }
    // Held money is a liability: 600 × 1.00 credited to suspense, once each.
    expect(await balance('2100')).toBe(suspenseBefore - 600 * 100);
    const audits = await one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action IN ('payment.create', 'payment.suspense')
        AND entity_id IN (SELECT id FROM payments WHERE reference LIKE ${`${run}%`})`,
    );
    expect(audits.n).toBe(700);
    await trialBalanceNets();
  }, 300_000);

  it('records one TransID once when 25 deliveries of it race each other, matched or not', async () => {
    const contract = await active();
    const matched = c2b({ BillRefNumber: contract.number, TransAmount: '7.00' });
    const unmatched = c2b({ BillRefNumber: 'RACE-NOBODY', TransAmount: '3.00' });
    const answers = await Promise.all(
      [matched, unmatched].flatMap((body) => Array.from({ length: 25 }, () => confirm(body))),
    );
    expect(answers.every((a) => a.statusCode === 200 && a.json().ResultCode === 0)).toBe(true);
    for (const body of [matched, unmatched]) {
      const row = await one<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM payments WHERE method = 'mobile_money' AND reference = ${body.TransID}`,
      );
      expect(row.n).toBe(1);
    }
    const after = (await finance.get(`/api/contracts/${contract.id}`)).json();
    expect(after.outstanding.total).toBe(contract.outstanding.total - 700);
    await trialBalanceNets();
  });

  it('holds an unmatched payment in suspense; finance matches it to a contract, which allocates it, and suspense nets back', async () => {
    const contract = await active();
    const suspense = await balance('2100');
    const mobile = await balance('1020');
    const body = c2b({ BillRefNumber: 'Jane paying for her phone', TransAmount: '200.00' });
    expect((await confirm(body)).json()).toEqual(ACCEPTED);
    const held = await paymentByReference(body.TransID);
    expect(held).toMatchObject({
      status: 'suspense',
      contractId: null,
      customerId: null,
      amount: 20_000,
      accountReference: 'Jane paying for her phone',
    });
    const queue = (await finance.get('/api/payments?status=suspense&pageSize=100')).json();
    expect(queue.items.map((p: { id: string }) => p.id)).toContain(held.id);
    expect(await balance('2100')).toBe(suspense - 20_000);
    expect(await balance('1020')).toBe(mobile + 20_000);

    // Only finance matches; a contract that takes no payments is refused and the payment stays.
    expect(
      (await agent.post(`/api/payments/${held.id}/match`, { contractId: contract.id, reason: 'Called her' }))
        .statusCode,
    ).toBe(403);
    const draft = await approvedContract(t, { agent, manager, reviewer: checker });
    const refused = await finance.post(`/api/payments/${held.id}/match`, {
      contractId: draft.id,
      reason: 'Wrong one',
    });
    expect(refused.statusCode).toBe(422);
    expect((await finance.get(`/api/payments/${held.id}`)).json().payment.status).toBe('suspense');

    const matched = await finance.post(`/api/payments/${held.id}/match`, {
      contractId: contract.id,
      reason: 'Customer called with the receipt',
    });
    expect(matched.statusCode, matched.body).toBe(200);
    const result = matched.json();
    expect(result.payment).toMatchObject({
      status: 'posted',
      contractId: contract.id,
      contractNumber: contract.number,
      customerId: contract.customer.id,
      amount: 20_000,
    });
    expect(result.payment.postedByName).toMatch(/^Finance/);
    expect(result.payment.valueDate).toBeTruthy();
    expect(result.allocations.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBe(20_000);
    const after = (await finance.get(`/api/contracts/${contract.id}`)).json();
    expect(after.outstanding.total).toBe(contract.outstanding.total - 20_000);
    // Suspense is back where it was; mobile money holds the money once.
    expect(await balance('2100')).toBe(suspense);
    expect(await balance('1020')).toBe(mobile + 20_000);
    await trialBalanceNets();

    const twice = await finance.post(`/api/payments/${held.id}/match`, {
      contractId: contract.id,
      reason: 'Again',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('PAYMENT_STATE');
    expect(
      (await finance.post(`/api/payments/${held.id}/refund`, { reason: 'Not this one' })).statusCode,
    ).toBe(409);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (
        await finance.post(`/api/payments/${unknown}/match`, {
          contractId: contract.id,
          reason: 'x'.repeat(5),
        })
      ).statusCode,
    ).toBe(404);
    const audit = await one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'payment.match' AND entity_id = ${held.id}`,
    );
    expect(audit.n).toBe(1);
  });

  it('a reference naming a contract that takes no payments goes to suspense', async () => {
    const draft = await approvedContract(t, { agent, manager, reviewer: checker });
    const body = c2b({ BillRefNumber: draft.number });
    expect((await confirm(body)).json()).toEqual(ACCEPTED);
    expect(await paymentByReference(body.TransID)).toMatchObject({ status: 'suspense', contractId: null });
  });

  it('matches concurrently once: one of two simultaneous matches wins, the other is a 409', async () => {
    const contract = await active();
    const body = c2b({ BillRefNumber: 'UNKNOWN', TransAmount: '30.00' });
    await confirm(body);
    const held = await paymentByReference(body.TransID);
    const answers = await Promise.all(
      [1, 2].map(() =>
        finance.post(`/api/payments/${held.id}/match`, { contractId: contract.id, reason: 'Matched' }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const after = (await finance.get(`/api/contracts/${contract.id}`)).json();
    expect(after.outstanding.total).toBe(contract.outstanding.total - 3_000);
  });

  it('refunds a suspense payment: reversed, marked refunded, out of suspense and mobile money', async () => {
    const suspense = await balance('2100');
    const mobile = await balance('1020');
    const body = c2b({ BillRefNumber: 'not ours', TransAmount: '75.00' });
    await confirm(body);
    const held = await paymentByReference(body.TransID);
    const refunded = await finance.post(`/api/payments/${held.id}/refund`, {
      reason: 'Paid the wrong paybill',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().payment).toMatchObject({
      status: 'reversed',
      refunded: true,
      reversalReason: 'Paid the wrong paybill',
      contractId: null,
    });
    expect(refunded.json().payment.reversedAt).toBeTruthy();
    expect(await balance('2100')).toBe(suspense);
    expect(await balance('1020')).toBe(mobile);
    expect((await finance.post(`/api/payments/${held.id}/refund`, { reason: 'Again' })).statusCode).toBe(409);
    const contract = await active();
    expect(
      (await finance.post(`/api/payments/${held.id}/match`, { contractId: contract.id, reason: 'Late' }))
        .statusCode,
    ).toBe(409);
    await trialBalanceNets();
  });

  async function settled(client: TestClient, id: string) {
    for (let i = 0; i < 100; i++) {
      const push = (await client.get(`/api/payments/push/${id}`)).json();
      if (push.status !== 'pending') return push;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Push ${id} still pending`);
  }

  it('STK push through the simulator: the push completes itself and posts the payment', async () => {
    const contract = await active();
    const res = await agent.post('/api/payments/push', { contractId: contract.id, amount: 10_000 });
    expect(res.statusCode, res.body).toBe(201);
    const push = res.json();
    expect(push).toMatchObject({
      contractId: contract.id,
      contractNumber: contract.number,
      phone: contract.customer.phone,
      amount: 10_000,
      currency: 'KES',
      provider: 'simulator',
      status: 'pending',
    });
    expect(push.checkoutRequestId).toMatch(/^ws_CO_SIM_/);
    const done = await settled(agent, push.id);
    expect(done).toMatchObject({ status: 'succeeded', resultCode: 0 });
    const payment = (await finance.get(`/api/payments/${done.paymentId}`)).json().payment;
    expect(payment).toMatchObject({
      contractId: contract.id,
      amount: 10_000,
      provider: 'mpesa',
      status: 'posted',
    });
    expect(payment.reference).toMatch(/^SIM/);

    // Whole shillings only; a live contract only; another phone may be given.
    const cents = await agent.post('/api/payments/push', { contractId: contract.id, amount: 10_050 });
    expect(cents.statusCode).toBe(400);
    expect(cents.json().errors[0].field).toBe('amount');
    const badPhone = await agent.post('/api/payments/push', {
      contractId: contract.id,
      amount: 100,
      phone: '12',
    });
    expect(badPhone.statusCode).toBe(400);
    const draft = await approvedContract(t, { agent, manager, reviewer: checker });
    expect(
      (await agent.post('/api/payments/push', { contractId: draft.id, amount: 10_000 })).statusCode,
    ).toBe(422);
    expect((await agent.get('/api/payments/push/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('STK push through the simulator set to fail: the push is failed and nothing is posted', async () => {
    const failing = await startTestApp(kind, {
      shared: t.db,
      env: { MPESA_SIMULATOR_OUTCOME: 'failure', MPESA_SIMULATOR_DELAY_MS: '10' },
    });
    try {
      const contract = await active();
      failing.clock.ms = t.clock.ms;
      const staff = await failing.signedIn('agent', { email: `failing-agent-${kind}@test.example.com` });
      const push = (
        await staff.post('/api/payments/push', { contractId: contract.id, amount: 5_000 })
      ).json();
      const done = await settled(staff, push.id);
      expect(done).toMatchObject({ status: 'failed', resultCode: 1032, paymentId: null });
      const row = await one<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM payments WHERE contract_id = ${contract.id} AND method = 'mobile_money'`,
      );
      expect(row.n).toBe(0);
    } finally {
      await failing.close();
    }
  });

  it('STK push end to end against a fake Daraja: OAuth, the push request, the callback, repeats and failures', async () => {
    const fake = new FakeDaraja({
      consumerKey: 'key-123',
      consumerSecret: 'secret-456',
      shortCode: '174379',
      passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
    });
    const base = await fake.start();
    const daraja = await startTestApp(kind, {
      shared: t.db,
      env: {
        MPESA_PROVIDER: 'daraja',
        MPESA_BASE_URL: base,
        MPESA_CONSUMER_KEY: 'key-123',
        MPESA_CONSUMER_SECRET: 'secret-456',
        MPESA_SHORTCODE: '174379',
        MPESA_PASSKEY: fake.options.passkey,
        MPESA_CALLBACK_TOKEN: TOKEN,
        MPESA_CALLBACK_BASE_URL: 'https://lender.example.com',
      },
    });
    try {
      await daraja.app.listen({ port: 0, host: '127.0.0.1' });
      fake.callbackOrigin = `http://127.0.0.1:${(daraja.app.server.address() as AddressInfo).port}`;
      const contract = await active();
      daraja.clock.ms = t.clock.ms; // one clock for both instances: the money comes after activation
      const staff = await daraja.signedIn('finance', { email: `daraja-finance-${kind}@test.example.com` });

      const res = await staff.post('/api/payments/push', { contractId: contract.id, amount: 12_300 });
      expect(res.statusCode, res.body).toBe(201);
      const push = res.json();
      expect(push).toMatchObject({ provider: 'daraja', status: 'pending' });
      const sent = fake.pushes.at(-1);
      expect(sent).toMatchObject({
        Amount: 123,
        PartyA: contract.customer.phone.slice(1),
        PhoneNumber: contract.customer.phone.slice(1),
        PartyB: '174379',
        AccountReference: contract.number,
        TransactionType: 'CustomerPayBillOnline',
      });
      expect(sent?.CallBackURL).toBe(
        `https://lender.example.com/api/webhooks/mpesa/stk/callback?token=${TOKEN}`,
      );
      expect(push.checkoutRequestId).toBe(sent?.checkoutRequestId);
      if (!sent) throw new Error('no push reached the fake');
      // While it waits on the phone, a second request for the contract is refused: asked once.
      const again = await staff.post('/api/payments/push', { contractId: contract.id, amount: 12_300 });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('PUSH_PENDING');
      expect(fake.pushes.at(-1)).toBe(sent);

      const answered = await fake.complete(sent, { success: true });
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual(ACCEPTED);
      const done = (await staff.get(`/api/payments/push/${push.id}`)).json();
      expect(done).toMatchObject({ status: 'succeeded', resultCode: 0 });
      const payment = (await finance.get(`/api/payments/${done.paymentId}`)).json().payment;
      expect(payment).toMatchObject({
        contractId: contract.id,
        amount: 12_300,
        reference: answered.receipt,
        provider: 'mpesa',
        status: 'posted',
      });
      // The same result again (Daraja retries): accepted, nothing more.
      const before = await counts();
      expect((await fake.complete(sent, { success: true, receipt: answered.receipt ?? '' })).body).toEqual(
        ACCEPTED,
      );
      expect(await counts()).toEqual(before);

      // A push the customer cancels: failed, nothing posted; the OAuth token was reused.
      const second = (
        await staff.post('/api/payments/push', { contractId: contract.id, amount: 5_000 })
      ).json();
      const cancelled = fake.pushes.at(-1);
      if (!cancelled) throw new Error('no second push');
      expect(
        (await fake.complete(cancelled, { success: false, code: 1032, desc: 'Request cancelled by user' }))
          .status,
      ).toBe(200);
      expect((await staff.get(`/api/payments/push/${second.id}`)).json()).toMatchObject({
        status: 'failed',
        resultCode: 1032,
        resultDesc: 'Request cancelled by user',
        paymentId: null,
      });
      expect(fake.tokensIssued).toBe(1);

      // Daraja refuses a push: recorded as failed with its reason.
      fake.refuseNext = 'The initiator information is invalid.';
      const refused = await staff.post('/api/payments/push', { contractId: contract.id, amount: 5_000 });
      expect(refused.statusCode).toBe(201);
      expect(refused.json()).toMatchObject({ status: 'failed', checkoutRequestId: null });
      expect(refused.json().resultDesc).toMatch(/initiator information is invalid/);

      // An unknown CheckoutRequestID: accepted, nothing written.
      const quiet = await counts();
      const unknown = await t.client().post(
        `${STK}?token=${TOKEN}`,
        {
          Body: {
            stkCallback: {
              MerchantRequestID: '1',
              CheckoutRequestID: 'ws_CO_nobody',
              ResultCode: 0,
              ResultDesc: 'ok',
            },
          },
        },
        { csrf: false },
      );
      expect(unknown.json()).toEqual(ACCEPTED);
      expect(await counts()).toEqual(quiet);
    } finally {
      await daraja.close();
      await fake.stop();
    }
  });
});
