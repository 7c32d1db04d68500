import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialBalance } from '../../src/contracts/ledger';
import { addDays } from '../../src/domain';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activeContract, type OriginationStaff } from '../support/origination';

/** Issue 13 §B: /finance's key balances and the trial balance at any date. */
describe.each(DATABASE_KINDS)('balances as of a date on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let finance: TestClient;
  let staff: OriginationStaff;

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { BUSINESS_DATE_CONTROL: 'true' } });
    admin = await t.signedIn('admin');
    finance = await t.signedIn('finance');
    staff = {
      agent: await t.signedIn('agent'),
      manager: await t.signedIn('manager'),
      reviewer: await t.signedIn('manager'),
    };
  });
  afterAll(() => t.close());

  async function trialBalance(asOf?: string): Promise<TrialBalance> {
    const answer = await finance.get(`/api/ledger/trial-balance${asOf ? `?asOf=${asOf}` : ''}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as TrialBalance;
    expect(body.balanced).toBe(true);
    expect(body.totals.debit).toBe(body.totals.credit);
    return body;
  }
  /** Debit less credit of an account (zero if never posted). */
  const balanceOf = (tb: TrialBalance, code: string) => tb.rows.find((r) => r.code === code)?.balance ?? 0;

  it('answers each account’s balance at the date asked, with debits equal to credits', async () => {
    const day0 = (await admin.get('/api/business-date')).json().businessDate as string;
    const before = await trialBalance(addDays(day0, -1));
    expect(before.asOf).toBe(addDays(day0, -1));
    expect(before.totals.debit).toBe(0);

    const contract = await activeContract(t, staff);
    const atActivation = await trialBalance();
    expect(atActivation.asOf).toBe(day0);
    // The deposit came in cash; the financed amount is receivable.
    expect(balanceOf(atActivation, '1000')).toBe(25_000);
    expect(balanceOf(atActivation, '1100')).toBe(contract.principal);

    const day5 = addDays(day0, 5);
    expect((await admin.put('/api/business-date', { businessDate: day5 })).statusCode).toBe(200);
    const cash = await staff.agent.post('/api/payments', {
      contractId: contract.id,
      amount: 10_000,
      method: 'cash',
    });
    expect(cash.statusCode, cash.body).toBe(201);
    const mobile = await finance.post('/api/payments', {
      contractId: contract.id,
      amount: 20_000,
      method: 'mobile_money',
      reference: `MM-${contract.id.slice(0, 8)}`,
    });
    expect(mobile.statusCode, mobile.body).toBe(201);
    const bank = await finance.post('/api/payments', {
      contractId: contract.id,
      amount: 5_000,
      method: 'bank_transfer',
      reference: `BT-${contract.id.slice(0, 8)}`,
    });
    expect(bank.statusCode, bank.body).toBe(201);
    const principalPaid = [cash, mobile, bank]
      .flatMap((r) => r.json().allocations as { component: string; amount: number }[])
      .filter((l) => l.component === 'principal')
      .reduce((sum, l) => sum + l.amount, 0);

    const now = await trialBalance(day5);
    expect(balanceOf(now, '1000')).toBe(25_000 + 10_000);
    expect(balanceOf(now, '1010')).toBe(5_000);
    expect(balanceOf(now, '1020')).toBe(20_000);
    expect(balanceOf(now, '1100')).toBe(contract.principal - principalPaid);
    expect(balanceOf(now, '2000')).toBe(balanceOf(atActivation, '2000'));
    expect(balanceOf(now, '2100')).toBe(0);
    // Without a date: the business date.
    expect((await trialBalance()).asOf).toBe(day5);

    // As of a day before the payments: as it stood at activation.
    const earlier = await trialBalance(addDays(day5, -1));
    for (const code of ['1000', '1010', '1020', '1100', '2000', '2100'])
      expect(balanceOf(earlier, code), code).toBe(balanceOf(atActivation, code));
  });

  it('refuses a malformed date and keeps the ledger to finance roles', async () => {
    expect((await finance.get('/api/ledger/trial-balance?asOf=2026-02-30')).statusCode).toBe(400);
    expect((await staff.agent.get('/api/ledger/trial-balance')).statusCode).toBe(403);
  });
});
