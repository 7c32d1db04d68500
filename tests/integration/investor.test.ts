import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  InvestorCashFlows,
  InvestorCode,
  InvestorParTrend,
  InvestorSummary,
  InvestorVintages,
} from '../../src/contracts/investor';
import { investorEndpoints } from '../../src/contracts/investor';
import { queryRows } from '../../src/db/client';
import { addDays } from '../../src/domain';
import { backfillSnapshots } from '../../src/server/modules/close-of-business/snapshot';
import { dpdOn } from '../../src/server/modules/contracts/figures';
import { normaliseInvestorCode } from '../../src/server/modules/investor/codes';
import { INVESTOR_LOGIN_RATE_LIMIT } from '../../src/server/modules/investor/routes';
import { organisation } from '../../src/server/organisation';
import { sha256 } from '../../src/server/secrets';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';
import { pdfTextLines } from '../support/pdf-text';

const TODAY = '2024-03-01';
const FIRST_START = '2023-11-01';
const terms = {
  lateFeeKind: 'none',
  lateFeeValue: 0,
  graceDays: 0,
  lockAfterDays: null,
  defaultAfterDays: null,
};
const at = (date: string) => Date.parse(`${date}T12:00:00Z`);

/**
 * Investor codes and the investor portal (issue 16 §2-3): codes work until revoked or expired
 * (their sessions end with them), are stored hashed and audited; the portal's answers carry no
 * customer's personal data or ids, and its figures are the raw tables' for the same date.
 */
describe.each(DATABASE_KINDS)('investor portal on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;

  /** Issues a code as the admin; answers the code and its row. */
  async function issue(
    scope: { kind: 'portfolio' } | { kind: 'tag'; tag: string },
    expiresOn = '2024-06-30',
  ) {
    const answer = await admin.post('/api/investor-codes', {
      label: `Investor ${scope.kind}`,
      expiresOn,
      scope,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<{ code: string; item: InvestorCode }>();
  }

  async function signedInInvestor(code: string): Promise<TestClient> {
    const client = t.client();
    const login = await client.post('/api/investor/login', { code }, { csrf: false });
    expect(login.statusCode, login.body).toBe(200);
    return client;
  }

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { BUSINESS_DATE_CONTROL: 'false' } });
    /** A six-month monthly contract on the shared terms. */
    const contract = (principal: number, apr: number, startDate: string, customerName: [string, string]) =>
      insertActiveContract(t.app.ctx, {
        principal,
        apr,
        frequency: 'monthly',
        term: 6,
        startDate,
        terms,
        customerName,
      });
    const book = {
      // fund-a; paid twice.
      a: await contract(60_000, 24, '2023-11-30', ['Wanjikuinv', 'Otienoinv']),
      // fund-a and fund-b; paid once.
      b: await contract(40_000, 24, '2023-12-15', ['Baraka', 'Mutuaplain']),
      // fund-b; paid once.
      c: await contract(30_000, 12, '2024-01-10', ['Zawadi', 'Chelimo']),
      // No fund; never paid: more than 90 days late at TODAY.
      d: await contract(50_000, 24, FIRST_START, ['Kipchoge', 'Arrearsson']),
    };
    const { db } = t.app.ctx;
    // The fixture activates on the real clock; this book lives on the test clock's dates.
    await db.execute(sql`UPDATE contracts SET activated_at = start_date::timestamptz`);
    await db.execute(sql`UPDATE customers SET national_id = 'NID' || substr(md5(id), 1, 8)`);
    const tag = (contract: { id: string }, tags: string[]) =>
      db.execute(sql`UPDATE customers SET tags = ${sql.param(tags)}::text[]
                     WHERE id = (SELECT customer_id FROM contracts WHERE id = ${contract.id})`);
    await tag(book.a, ['fund-a']);
    await tag(book.b, ['fund-a', 'fund-b']);
    await tag(book.c, ['fund-b']);
    // A superseded schedule, as a re-amortisation leaves one: d moves to a second version with the
    // same instalments and its first version's rows stay. No figure may count them twice.
    await db.execute(sql`INSERT INTO contract_installments
      SELECT contract_id, schedule_version + 1, n, due_date, principal_due, interest_due, fee_due, penalty_due,
             principal_paid, interest_paid, fee_paid, penalty_paid, settled_at
      FROM contract_installments WHERE contract_id = ${book.d.id}`);
    await db.execute(
      sql`UPDATE contracts SET schedule_version = schedule_version + 1 WHERE id = ${book.d.id}`,
    );

    const finance = await t.signedIn('finance');
    const pay = async (date: string, contract: { id: string }, amount: number) => {
      t.clock.ms = at(date);
      const paid = await finance.post('/api/payments', { contractId: contract.id, amount, method: 'cash' });
      expect(paid.statusCode, paid.body).toBe(201);
    };
    await pay('2024-01-02', book.a, 12_000);
    await pay('2024-01-20', book.b, 8_000);
    await pay('2024-02-12', book.c, 6_000);
    await pay('2024-02-20', book.a, 12_000);

    t.clock.ms = at(TODAY);
    const org = await organisation(t.app.ctx, db);
    await withTransaction(t.app.ctx, (tx) => backfillSnapshots(tx, org, FIRST_START, addDays(TODAY, -1)));
    const manager = await t.signedIn('manager');
    const closed = await manager.post('/api/eod/run', { businessDate: TODAY });
    expect(closed.statusCode, closed.body).toBe(200);
    admin = await t.signedIn('admin');
  }, 240_000);
  afterAll(() => t?.close());

  it('issues a code that works once shown, stored as its hash with a hint, audited', async () => {
    const { code, item } = await issue({ kind: 'tag', tag: 'fund-a' });
    expect(normaliseInvestorCode(code).length).toBeGreaterThanOrEqual(20);
    expect(item).toMatchObject({
      status: 'active',
      hint: normaliseInvestorCode(code).slice(-4),
      useCount: 0,
      // The last day it works is the day it was issued for; it stops at that day's end (UTC).
      expiresOn: '2024-06-30',
      expiresAt: '2024-07-01T00:00:00.000Z',
    });
    const [row] = await queryRows<{ code_hash: string }>(
      t.app.ctx.db,
      sql`SELECT code_hash FROM investor_codes WHERE id = ${item.id}`,
    );
    expect(row?.code_hash).toBe(sha256(normaliseInvestorCode(code)));
    const stored = JSON.stringify(
      await queryRows(t.app.ctx.db, sql`SELECT * FROM investor_codes WHERE id = ${item.id}`),
    );
    expect(stored).not.toContain(normaliseInvestorCode(code));
    // The list never shows it again.
    const list = await admin.get('/api/investor-codes');
    expect(list.body).not.toContain(code);

    // Typed in lower case with spaces, it still works.
    const investor = t.client();
    const login = await investor.post(
      '/api/investor/login',
      { code: code.toLowerCase().replaceAll('-', ' ') },
      { csrf: false },
    );
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toEqual({ label: 'Investor tag', scope: { kind: 'tag', tag: 'fund-a' } });
    expect((await investor.get('/api/investor/me')).json()).toEqual(login.json());
    const used = (await admin.get('/api/investor-codes')).json<{ items: InvestorCode[] }>().items;
    expect(used.find((c) => c.id === item.id)).toMatchObject({ useCount: 1, lastUsedAt: expect.any(String) });

    const audit = await queryRows<{ action: string; actor_id: string | null }>(
      t.app.ctx.db,
      sql`SELECT action, actor_id FROM audit_log WHERE entity_type = 'investor_code' AND entity_id = ${item.id} ORDER BY id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['investor_code.issue', 'investor_code.login']);
    expect(audit[0]?.actor_id).toBe((admin as TestClient & { user: { id: string } }).user.id);

    // Sign-out ends the session.
    expect((await investor.post('/api/investor/logout')).statusCode).toBe(200);
    expect((await investor.get('/api/investor/summary')).statusCode).toBe(401);
  });

  it('refuses unknown, revoked and expired codes alike, and ends a revoked code’s sessions', async () => {
    const revoked = await issue({ kind: 'portfolio' });
    const session = await signedInInvestor(revoked.code);
    expect((await session.get('/api/investor/summary')).statusCode).toBe(200);
    const answer = await admin.post(`/api/investor-codes/${revoked.item.id}/revoke`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<InvestorCode>()).toMatchObject({
      status: 'revoked',
      revokedByName: expect.any(String),
    });
    expect((await session.get('/api/investor/summary')).statusCode).toBe(401);

    // A code that ends tonight: a session opened before midnight ends with it (not by idling).
    const expiring = await issue({ kind: 'portfolio' }, TODAY);
    t.clock.ms = Date.parse(`${TODAY}T23:50:00Z`);
    try {
      const before = await signedInInvestor(expiring.code);
      expect((await before.get('/api/investor/summary')).statusCode).toBe(200);
      t.clock.ms = Date.parse(`${addDays(TODAY, 1)}T00:05:00Z`);
      expect((await before.get('/api/investor/summary')).statusCode).toBe(401);
      const refusals = await Promise.all(
        [revoked.code, expiring.code, 'NOT-A-REAL-CODE-0000-0000'].map((code) =>
          t.client().post('/api/investor/login', { code }, { csrf: false }),
        ),
      );
      expect(refusals.map((r) => r.statusCode)).toEqual([401, 401, 401]);
      expect(new Set(refusals.map((r) => r.json<{ message: string }>().message)).size).toBe(1);
      const late = await t.signedIn('admin');
      const listed = (await late.get('/api/investor-codes')).json<{ items: InvestorCode[] }>().items;
      expect(listed.find((c) => c.id === expiring.item.id)?.status).toBe('expired');
    } finally {
      t.clock.ms = at(TODAY);
      // The clock's jumps idled the administrator's session out.
      admin = await t.signedIn('admin');
    }
    const audit = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`SELECT action FROM audit_log WHERE entity_id = ${revoked.item.id} ORDER BY id`,
    );
    expect(audit.map((a) => a.action)).toEqual([
      'investor_code.issue',
      'investor_code.login',
      'investor_code.revoke',
    ]);
  });

  it('rate limits sign-in per address (429)', async () => {
    const client = t.client();
    const { max } = INVESTOR_LOGIN_RATE_LIMIT;
    const statuses: number[] = [];
    for (let i = 0; i <= max; i += 1)
      statuses.push(
        (await client.post('/api/investor/login', { code: `WRONG-${i}` }, { csrf: false })).statusCode,
      );
    expect(statuses.slice(0, max)).toEqual(Array(max).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Another address is not held back.
    const other = await t.client().post('/api/investor/login', { code: 'WRONG' }, { csrf: false });
    expect(other.statusCode).toBe(401);
  });

  it('lets only administrators issue, list and revoke codes', async () => {
    const manager = await t.signedIn('manager');
    expect((await manager.get('/api/investor-codes')).statusCode).toBe(403);
    const body = { label: 'x', expiresOn: '2024-06-30', scope: { kind: 'portfolio' } };
    expect((await manager.post('/api/investor-codes', body)).statusCode).toBe(403);
    // An expiry already past is refused.
    const past = await admin.post('/api/investor-codes', { ...body, expiresOn: addDays(TODAY, -1) });
    expect(past.statusCode, past.body).toBe(422);
  });

  it('answers no customer name, phone, national id or customer or contract id on any investor endpoint', async () => {
    const values = await queryRows<{ value: string }>(
      t.app.ctx.db,
      sql`SELECT unnest(ARRAY[cu.id, cu.first_name, cu.last_name, cu.phone, cu.national_id, cu.account_number,
                               c.id, c.number, replace(cu.phone, '+', '')]) AS value
          FROM contracts c JOIN customers cu ON cu.id = c.customer_id`,
    );
    const secrets = [...new Set(values.map((v) => v.value).filter((v): v is string => !!v && v.length >= 4))];
    expect(secrets.length).toBeGreaterThan(20);
    for (const scope of [{ kind: 'portfolio' as const }, { kind: 'tag' as const, tag: 'fund-a' }]) {
      const investor = await signedInInvestor((await issue(scope)).code);
      const investorGets = Object.values(investorEndpoints).filter(
        (e) => e.method === 'GET' && e.path.startsWith('/api/investor/'),
      );
      expect(investorGets.length).toBeGreaterThanOrEqual(7);
      for (const endpoint of investorGets) {
        const url = 'query' in endpoint ? `${endpoint.path}?from=2023-11-01&to=${TODAY}` : endpoint.path;
        const response = await investor.get(url);
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
        let text: string;
        if (url.includes('.pdf')) text = pdfTextLines(response.rawPayload).join('\n');
        else if (url.includes('.xlsx')) {
          const workbook = new ExcelJS.Workbook();
          // exceljs's typing wants its own Buffer type; a Node Buffer is what it reads.
          await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
          const cells: string[] = [];
          workbook.eachSheet((sheet) => {
            sheet.eachRow((row) => {
              row.eachCell((cell) => {
                cells.push(String(cell.value));
              });
            });
          });
          text = cells.join('\n');
          expect(text).toContain('Collected');
        } else text = response.body;
        const lower = text.toLowerCase();
        const found = secrets.filter((s) => lower.includes(s.toLowerCase()));
        expect(found, url).toEqual([]);
      }
    }
  });

  /** The figures at TODAY straight from contracts, customers and payments, for a fund or all. */
  async function rawFigures(tag: string | null) {
    const inScope = tag ? sql`cu.tags @> ARRAY[${tag}]::text[]` : sql`true`;
    const [row] = await queryRows<{
      disbursed: number;
      contracts: number;
      outstanding: number;
      par30: number;
      par90: number;
      collected: number;
      due: number;
      income: number;
    }>(
      t.app.ctx.db,
      sql`
      WITH scoped AS (
        SELECT c.*, ${dpdOn(TODAY)} AS dpd FROM contracts c JOIN contract_figures f ON f.contract_id = c.id JOIN customers cu ON cu.id = c.customer_id
        WHERE c.activated_at IS NOT NULL AND c.start_date <= ${TODAY}::date AND ${inScope}
      ), lines AS (
        SELECT a.amount, a.component FROM payment_allocations a
        JOIN payments p ON p.id = a.payment_id JOIN scoped s ON s.id = a.contract_id
        WHERE p.status = 'posted' AND p.method <> 'deposit' AND p.value_date <= ${TODAY}::date
          AND a.superseded_at IS NULL AND a.component <> 'credit' AND a.installment_number IS NOT NULL
      )
      SELECT (SELECT sum(principal) FROM scoped)::float8 AS disbursed, (SELECT count(*) FROM scoped)::int AS contracts,
             (SELECT coalesce(sum(outstanding_principal), 0) FROM scoped WHERE status IN ('active', 'defaulted'))::float8 AS outstanding,
             (SELECT coalesce(sum(outstanding_principal), 0) FROM scoped WHERE status IN ('active', 'defaulted') AND dpd > 30)::float8 AS par30,
             (SELECT coalesce(sum(outstanding_principal), 0) FROM scoped WHERE status IN ('active', 'defaulted') AND dpd > 90)::float8 AS par90,
             (SELECT coalesce(sum(amount), 0) FROM lines)::float8 AS collected,
             (SELECT coalesce(sum(amount), 0) FROM lines WHERE component <> 'principal')::float8 AS income,
             (SELECT coalesce(sum(i.principal_due + i.interest_due + i.fee_due), 0) FROM contract_installments i
              JOIN scoped s ON s.id = i.contract_id AND s.schedule_version = i.schedule_version
              WHERE i.due_date <= ${TODAY}::date)::float8 AS due`,
    );
    if (!row) throw new Error('no raw figures');
    return row;
  }

  it.each([
    ['the whole portfolio', null],
    ['a fund (customer tag)', 'fund-a'],
    ['another fund', 'fund-b'],
  ])('answers the raw tables’ figures for %s', async (_name, tag) => {
    const investor = await signedInInvestor(
      (await issue(tag ? { kind: 'tag', tag } : { kind: 'portfolio' })).code,
    );
    const summary = (await investor.get('/api/investor/summary')).json<InvestorSummary>();
    const raw = await rawFigures(tag);
    expect(raw.collected).toBeGreaterThan(0);
    expect(summary).toMatchObject({
      asOf: TODAY,
      disbursed: raw.disbursed,
      contracts: raw.contracts,
      outstanding: raw.outstanding,
      collected: raw.collected,
      par30Amount: raw.par30,
      par90Amount: raw.par90,
    });
    const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1e6) / 1e6 : 0);
    expect(summary.par30).toBeCloseTo(ratio(raw.par30, raw.outstanding), 6);
    expect(summary.collectionRate).toBeCloseTo(ratio(raw.collected, raw.due), 6);
    expect(summary.yield).toBeCloseTo(ratio(raw.income, raw.disbursed), 6);
    if (!tag) expect(summary.par90Amount).toBeGreaterThan(0);

    // Cash flows add up to the totals; the vintages' disbursements too.
    const flows = (await investor.get('/api/investor/cash-flows')).json<InvestorCashFlows>();
    expect(flows.months.reduce((s, m) => s + m.collected, 0)).toBe(raw.collected);
    expect(flows.months.reduce((s, m) => s + m.disbursed, 0)).toBe(raw.disbursed);
    const vintages = (await investor.get('/api/investor/vintages')).json<InvestorVintages>();
    expect(vintages.vintages.reduce((s, v) => s + v.disbursed, 0)).toBe(raw.disbursed);
    const trend = (await investor.get('/api/investor/par-trend')).json<InvestorParTrend>();
    expect(trend.points.at(-1)).toMatchObject({ date: TODAY, outstanding: raw.outstanding });

    // The report for the whole history says the same.
    const pdf = await investor.get(`/api/investor/report.pdf?from=${FIRST_START}&to=${TODAY}`);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const lines = pdfTextLines(pdf.rawPayload).join('\n');
    expect(lines).toContain('Investor report');
    expect(lines).toContain(`${FIRST_START} to ${TODAY}`);
  });

  it('answers the whole portfolio’s outstanding and PAR as the dashboard does', async () => {
    const investor = await signedInInvestor((await issue({ kind: 'portfolio' })).code);
    const summary = (await investor.get('/api/investor/summary')).json<InvestorSummary>();
    const viewer = await t.signedIn('viewer');
    const kpis = (await viewer.get('/api/dashboard/kpis')).json<{
      points: {
        businessDate: string;
        outstandingPrincipal: number;
        par30Ratio: number;
        par90Ratio: number;
      }[];
    }>();
    const latest = kpis.points.at(-1);
    expect(latest?.businessDate).toBe(TODAY);
    expect(summary.outstanding).toBe(latest?.outstandingPrincipal);
    expect(summary.par30).toBe(latest?.par30Ratio);
    expect(summary.par90).toBe(latest?.par90Ratio);
  });
});
