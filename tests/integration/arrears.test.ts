import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractEndpoints } from '../../src/contracts/contracts';
import { queryRows } from '../../src/db/client';
import { businessToday } from '../../src/server/business-date';
import { totalKeyOf, totalsCache } from '../../src/server/list-definition';
import { refreshDelinquency } from '../../src/server/modules/contracts/delinquency';
import { contractList } from '../../src/server/modules/contracts/list';
import { organisation } from '../../src/server/organisation';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activePlan, deviceInStock, verifiedCustomer } from '../support/origination';

const DAY = 86_400_000;

/**
 * The arrears figures lists filter and sort on (dpd, bucket, next due) are refreshed set-based
 * for the business date, and agree with the contract page's live figures.
 */
describe.each(DATABASE_KINDS)('arrears figures on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let reviewer: TestClient;
  let contract: { id: string; number: string };
  let draft: { id: string };

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    reviewer = await t.signedIn('manager');
    const customer = await verifiedCustomer(t, agent, reviewer);
    const device = await deviceInStock(manager);
    const plan = await activePlan(manager);
    const created = await agent.post('/api/contracts', {
      customerId: customer.id,
      deviceId: device.id,
      planId: plan.id,
      deposit: 25_000,
      term: 4,
    });
    contract = created.json();
    await agent.post(`/api/contracts/${contract.id}/submit`);
    await manager.post(`/api/contracts/${contract.id}/approve`);
    await agent.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
    const activated = await manager.post(`/api/contracts/${contract.id}/activate`);
    expect(activated.statusCode, activated.body).toBe(200);
    const spare = await deviceInStock(manager);
    draft = (
      await agent.post('/api/contracts', {
        customerId: customer.id,
        deviceId: spare.id,
        planId: plan.id,
        deposit: 25_000,
        term: 4,
      })
    ).json();
  });
  afterAll(() => t.close());

  const figures = async (viewer: TestClient) => {
    const detail = (await viewer.get(`/api/contracts/${contract.id}`)).json();
    const [row] = (await viewer.get(`/api/contracts?q=${contract.number}`)).json().items;
    return { detail, row };
  };

  it('is current on the day of activation, and a second refresh changes nothing', async () => {
    await refreshDelinquency(t.app.ctx);
    expect(await refreshDelinquency(t.app.ctx)).toBe(0);
    const { detail, row } = await figures(agent);
    expect(row).toMatchObject({ dpd: 0, bucket: 'current', nextDueDate: detail.nextDue.dueDate });
  });

  it('counts the days past due once the first instalment is missed, as the contract page does', async () => {
    t.clock.advance(75 * DAY);
    expect(await refreshDelinquency(t.app.ctx)).toBeGreaterThanOrEqual(1);
    const viewer = await t.signedIn('viewer'); // a session of the new day
    const { detail, row } = await figures(viewer);
    expect(detail.dpd).toBeGreaterThan(31);
    expect(detail.bucket).toBe('31-60');
    expect(row).toMatchObject({
      dpd: detail.dpd,
      bucket: detail.bucket,
      nextDueDate: detail.nextDue.dueDate,
    });
    const ids = async (path: string) =>
      (await viewer.get(path)).json().items.map((item: { id: string }) => item.id);
    expect(await ids('/api/contracts?bucket=31-60')).toContain(contract.id);
    expect(await ids('/api/contracts?bucket=current')).not.toContain(contract.id);
    expect(await ids(`/api/contracts?minDpd=${detail.dpd}`)).toContain(contract.id);
    expect(await ids(`/api/contracts?minDpd=${detail.dpd + 1}`)).not.toContain(contract.id);
    expect((await ids('/api/contracts?status=active&sort=dpd&order=desc'))[0]).toBe(contract.id);
    // A filter that cannot be days past due says which and why.
    for (const [value, message] of [
      ['-3', 'minDpd must be 0 or more'],
      ['2.5', 'minDpd must be a whole number of days'],
      ['many', 'minDpd must be a number'],
    ]) {
      const refused = await viewer.get(`/api/contracts?minDpd=${value}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(message);
    }
  });

  it('leaves a contract that is not active out of arrears, its dates passed or not', async () => {
    const viewer = await t.signedIn('viewer');
    const detail = (await viewer.get(`/api/contracts/${draft.id}`)).json();
    expect(detail.schedule[0].dueDate < detail.asOf).toBe(true);
    expect(detail.schedule.map((row: { status: string }) => row.status)).toEqual(Array(4).fill('upcoming'));
    expect(detail).toMatchObject({ dpd: 0, bucket: 'current', nextDue: null });
    const [row] = (await viewer.get(`/api/contracts?status=draft`)).json().items;
    expect(row).toMatchObject({ id: draft.id, dpd: 0, bucket: 'current' });
  });

  it('relabels the bucket when the organisation changes its ranges', async () => {
    const admin = await t.signedIn('admin');
    const settings = (await admin.get('/api/settings/organisation')).json();
    const { updatedAt: _updatedAt, ...rest } = settings;
    const saved = await admin.request('PUT', '/api/settings/organisation', {
      ...rest,
      delinquencyBuckets: [1, 30, 90],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // No stored figure moves: the bucket is derived for the date read (decision 054).
    expect(await refreshDelinquency(t.app.ctx)).toBe(0);
    const { detail, row } = await figures(admin);
    expect(detail.bucket).toBe('30-89');
    expect(row.bucket).toBe('30-89');
    // The list's bucket filter offers what the organisation configured, and each option matches.
    const options = (await admin.get('/api/settings/options')).json();
    expect(options.delinquencyBuckets).toEqual([
      { value: 'current', label: 'Current' },
      { value: '1-29', label: '1-29 days' },
      { value: '30-89', label: '30-89 days' },
      { value: '90+', label: '90+ days' },
    ]);
    const filtered = (await admin.get(`/api/contracts?bucket=${options.delinquencyBuckets[2].value}`)).json();
    expect(filtered.items.map((c: { id: string }) => c.id)).toContain(detail.id);
  });

  it('has the database keep every instalment on an existing contract, and every contract', async () => {
    const refusal = async (statement: ReturnType<typeof sql>) =>
      t.app.ctx.db.execute(statement).then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
      );
    expect(
      await refusal(sql`INSERT INTO contract_installments (contract_id, schedule_version, n, due_date, principal_due, interest_due, fee_due)
                        VALUES ('no-such-contract', 1, 1, '2026-01-01', 100, 0, 0)`),
    ).toMatch(/must belong to an existing row of contracts/);
    expect(
      await refusal(
        sql`UPDATE contract_installments SET contract_id = 'no-such-contract' WHERE contract_id = ${contract.id} AND n = 1`,
      ),
    ).toMatch(/stays with its contract/);
    expect(await refusal(sql`DELETE FROM contracts WHERE id = ${contract.id}`)).toMatch(/never deleted/);
  });

  it('stores the arrears as the contract page counts them, after the refresh and after a part payment', async () => {
    const finance = await t.signedIn('finance');
    const page = async () =>
      (await finance.get(`/api/contracts/${contract.id}`)).json<{
        asOf: string;
        schedule: { dueDate: string; total: number; paid: number }[];
      }>();
    const overdueOn = (detail: Awaited<ReturnType<typeof page>>) =>
      detail.schedule
        .filter((row) => row.dueDate < detail.asOf)
        .reduce((sum, row) => sum + row.total - row.paid, 0);
    const stored = async () => {
      const [row] = await queryRows<{ overdue: string }>(
        t.app.ctx.db,
        sql`SELECT overdue_total::text AS overdue FROM contract_figures WHERE contract_id = ${contract.id}`,
      );
      return Number(row?.overdue);
    };
    await refreshDelinquency(t.app.ctx);
    const before = overdueOn(await page());
    expect(before).toBeGreaterThan(0);
    expect(await stored()).toBe(before);
    const paid = await finance.post('/api/payments', {
      contractId: contract.id,
      amount: Math.floor(before / 2),
      method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const after = overdueOn(await page());
    expect(after).toBe(before - Math.floor(before / 2));
    expect(await stored()).toBe(after);
  });

  it('moves a contract between the bucket totals as a payment clears its arrears, and keeps the totals no payment moves', async () => {
    const finance = await t.signedIn('finance');
    await refreshDelinquency(t.app.ctx);
    const total = async (path: string) => (await finance.get(path)).json<{ total: number }>().total;
    const { detail, row } = await figures(finance);
    expect(detail.dpd).toBeGreaterThan(0);
    // Read (and so cache) the totals and the page the payment must change, or must not.
    const inBucket = await total(`/api/contracts?bucket=${detail.bucket}`);
    const pastDue = await total('/api/contracts?minDpd=1');
    const active = await total('/api/contracts?status=active');
    const overdue = detail.schedule
      .filter((line: { dueDate: string }) => line.dueDate < detail.asOf)
      .reduce((sum: number, line: { total: number; paid: number }) => sum + line.total - line.paid, 0);
    const paid = await finance.post('/api/payments', {
      contractId: contract.id,
      amount: overdue,
      method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(201);

    const after = await figures(finance);
    expect(after.detail).toMatchObject({ dpd: 0, bucket: 'current' });
    expect(after.row).toMatchObject({
      dpd: 0,
      bucket: 'current',
      outstandingTotal: row.outstandingTotal - overdue,
    });
    expect(await total(`/api/contracts?bucket=${detail.bucket}`)).toBe(inBucket - 1);
    expect(await total('/api/contracts?minDpd=1')).toBe(pastDue - 1);
    expect(await total('/api/contracts?status=active')).toBe(active);
    // That total was kept through the payment, not counted again: a payment moves figures, and
    // only totals whose filters read them are evicted (decision 045).
    const query = contractEndpoints.list.query.parse({ status: 'active' });
    const org = await organisation(t.app.ctx, t.app.ctx.db);
    const env = {
      timeZone: org.timeZone,
      businessDate: businessToday(t.app.ctx, org),
      buckets: org.delinquencyBuckets,
    };
    const cached = await totalsCache(t.app.ctx, contractList)?.get(
      totalKeyOf(contractList, query, env),
      async () => -1,
    );
    expect(cached).toBe(active);
  });
});
