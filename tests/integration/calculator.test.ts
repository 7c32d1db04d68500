import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

const quote = (t: TestApp, params: Record<string, string | number>) =>
  t
    .client()
    .get(
      `/api/calculator/quote?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`,
    );

describe.each(DATABASE_KINDS)('calculator quote on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('reproduces Fineract case A without a session, in the organisation’s currency', async () => {
    const response = await quote(t, {
      price: 150000,
      deposit: 25000,
      apr: 15,
      frequency: 'monthly',
      term: 4,
      installmentMultiple: 100,
      startDate: '2026-01-15',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      currency: 'USD',
      principal: 125000,
      installment: 32200,
      totalInterest: 3933,
      totalServiceFees: 0,
    });
    expect(body.totalPayable).toBe(128933);
    expect(body.schedule.map((row: { total: number }) => row.total)).toEqual([32200, 32200, 32200, 32333]);
    expect(body.schedule.map((row: { interest: number }) => row.interest)).toEqual([1562, 1180, 792, 399]);
    expect(body.schedule[0]).toEqual({
      n: 1,
      dueDate: '2026-02-15',
      principal: 30638,
      interest: 1562,
      serviceFee: 0,
      total: 32200,
      balance: 94362,
    });
    expect(body.schedule.at(-1).balance).toBe(0);
  });

  it('reproduces case B (flat) and adds a service fee as its own component', async () => {
    const flat = (
      await quote(t, {
        price: 125000,
        apr: 15,
        frequency: 'monthly',
        term: 4,
        interestMethod: 'flat',
        installmentMultiple: 100,
        startDate: '2026-01-01',
      })
    ).json();
    expect(flat.schedule.map((row: { total: number }) => row.total)).toEqual([32800, 32800, 32800, 32850]);
    const withFee = (
      await quote(t, {
        price: 125000,
        apr: 15,
        frequency: 'monthly',
        term: 4,
        serviceFee: 250,
        startDate: '2026-01-01',
      })
    ).json();
    expect(withFee.totalServiceFees).toBe(1000);
    expect(withFee.schedule.every((row: { serviceFee: number }) => row.serviceFee === 250)).toBe(true);
    expect(withFee.totalPayable).toBe(withFee.principal + withFee.totalInterest + 1000);
  });

  it('uses today in the organisation’s time zone when no start date is given', async () => {
    const body = (await quote(t, { price: 10000, apr: 0, frequency: 'daily', term: 3 })).json();
    const today = new Date();
    const expected = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1))
      .toISOString()
      .slice(0, 10);
    expect(body.schedule[0].dueDate).toBe(expected);
  });

  it('answers 400 with a message per field for bad input', async () => {
    const cases: Array<[Record<string, string | number>, string, string]> = [
      [{ apr: 10, frequency: 'weekly', term: 10 }, 'price', 'price is required'],
      [{ price: -5, apr: 10, frequency: 'weekly', term: 10 }, 'price', 'price must not be negative'],
      [{ price: 'abc', apr: 10, frequency: 'weekly', term: 10 }, 'price', 'price must be a number'],
      [
        { price: 10.5, apr: 10, frequency: 'weekly', term: 10 },
        'price',
        'price must be a whole number of minor units (e.g. cents)',
      ],
      [
        { price: 100, deposit: 200, apr: 10, frequency: 'weekly', term: 10 },
        'deposit',
        'deposit must not exceed price',
      ],
      [{ price: 100, apr: 10, frequency: 'weekly', term: 0 }, 'term', 'term must be between 1 and 3660'],
      [{ price: 100, apr: 10, frequency: 'weekly', term: 3661 }, 'term', 'term must be between 1 and 3660'],
      [
        { price: 100, apr: 10, frequency: 'fortnightly', term: 10 },
        'frequency',
        'frequency must be daily, weekly or monthly',
      ],
      [{ price: 100, apr: 1000.5, frequency: 'weekly', term: 10 }, 'apr', 'apr must be between 0 and 1000'],
      [{ price: 100, apr: -1, frequency: 'weekly', term: 10 }, 'apr', 'apr must be between 0 and 1000'],
      [
        { price: 100, apr: 10, frequency: 'weekly', term: 10, startDate: '2026-02-30' },
        'startDate',
        'startDate must be a date as YYYY-MM-DD',
      ],
      [
        { price: 100, apr: 10, frequency: 'weekly', term: 10, interestMethod: 'simple' },
        'interestMethod',
        'interestMethod must be declining or flat',
      ],
    ];
    for (const [params, field, message] of cases) {
      const response = await quote(t, params);
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(response.json().errors, JSON.stringify(params)).toContainEqual({ field, message });
    }
    const several = await quote(t, { price: -1, apr: 2000, frequency: 'yearly', term: 0 });
    expect(
      several
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['apr', 'frequency', 'price', 'term']);
  });

  it('accepts decimal APRs and the full 3,660-instalment daily range', async () => {
    const response = await quote(t, {
      price: 36600000,
      apr: 19.75,
      frequency: 'daily',
      term: 3660,
      startDate: '2026-01-01',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.schedule).toHaveLength(3660);
    expect(body.schedule.reduce((sum: number, row: { principal: number }) => sum + row.principal, 0)).toBe(
      36600000,
    );
  });
});

describe('calculator quote rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { env: { CALCULATOR_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('refuses an address beyond CALCULATOR_RATE_LIMIT_PER_MINUTE with 429, and not another address', async () => {
    const params = new URLSearchParams({ price: '10000', apr: '10', frequency: 'monthly', term: '3' });
    const client = t.client();
    for (let i = 0; i < 3; i++)
      expect((await client.get(`/api/calculator/quote?${params}`)).statusCode).toBe(200);
    const refused = await client.get(`/api/calculator/quote?${params}`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      message: 'Rate limit exceeded, retry in 1 minute',
      code: 'RATE_LIMITED',
    });
    expect((await t.client().get(`/api/calculator/quote?${params}`)).statusCode).toBe(200);
  });
});
