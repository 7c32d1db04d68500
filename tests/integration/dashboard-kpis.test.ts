import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardKpis } from '../../src/contracts/dashboard';
import { queryRows } from '../../src/db/client';
import { addDays } from '../../src/domain';
import { backfillSnapshots } from '../../src/server/modules/close-of-business/snapshot';
import { organisation } from '../../src/server/organisation';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';

const TODAY = '2024-03-01';
const terms = {
  lateFeeKind: 'none',
  lateFeeValue: 0,
  graceDays: 0,
  lockAfterDays: null,
  defaultAfterDays: null,
};

/**
 * GET /api/dashboard/kpis: the dashboard's cards read the latest portfolio snapshot and the 30
 * days ending at it; the collections queue counts contracts in arrears or with an instalment due
 * that day unpaid.
 */
describe.each(DATABASE_KINDS)('dashboard KPIs on %s', (kind) => {
  let t: TestApp;
  let viewer: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = Date.parse(`${TODAY}T12:00:00Z`);
    // In arrears since 30 December (monthly from 30 November: the 30 Dec, 30 Jan and 29 Feb instalments unpaid).
    await insertActiveContract(t.app.ctx, {
      principal: 60_000,
      apr: 24,
      frequency: 'monthly',
      term: 6,
      startDate: '2023-11-30',
      terms,
    });
    // First instalment due today, unpaid: in the queue, not in arrears.
    await insertActiveContract(t.app.ctx, {
      principal: 30_000,
      apr: 24,
      frequency: 'monthly',
      term: 6,
      startDate: '2024-02-01',
      terms,
    });
    // Current, nothing due until 15 March: not in the queue.
    await insertActiveContract(t.app.ctx, {
      principal: 20_000,
      apr: 12,
      frequency: 'monthly',
      term: 3,
      startDate: '2024-02-15',
      terms,
    });
    await organisation(t.app.ctx, t.app.ctx.db);
    viewer = await t.signedIn('viewer');
  });
  afterAll(() => t.close());

  it('answers no figures before any close, with the business date', async () => {
    expect((await t.client().get('/api/dashboard/kpis')).statusCode).toBe(401);
    const answer = await viewer.get('/api/dashboard/kpis');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<DashboardKpis>()).toEqual({
      currency: expect.any(String),
      businessDate: TODAY,
      lastClosedDate: null,
      points: [],
    });
  });

  it('reads the latest snapshot and the 30 days ending at it, oldest first', async () => {
    // A history of 40 back-filled days, then the close of today.
    const org = await organisation(t.app.ctx, t.app.ctx.db);
    await withTransaction(t.app.ctx, (tx) =>
      backfillSnapshots(tx, org, addDays(TODAY, -40), addDays(TODAY, -1)),
    );
    const manager = await t.signedIn('manager');
    expect((await manager.post('/api/eod/run', { businessDate: TODAY })).statusCode).toBe(200);

    const kpis = (await viewer.get('/api/dashboard/kpis')).json<DashboardKpis>();
    expect(kpis.lastClosedDate).toBe(TODAY);
    expect(kpis.points).toHaveLength(30);
    expect(kpis.points[0]?.businessDate).toBe(addDays(TODAY, -29));
    const latest = kpis.points.at(-1);
    const [snapshot] = await queryRows<Record<string, string | number>>(
      t.app.ctx.db,
      sql`SELECT * FROM portfolio_snapshots WHERE business_date = ${TODAY}`,
    );
    expect(latest).toEqual({
      businessDate: TODAY,
      activeCount: 3,
      defaultedCount: 0,
      overdueCount: 1,
      outstandingPrincipal: Number(snapshot?.outstanding_principal),
      outstandingTotal: Number(snapshot?.outstanding_total),
      dueMonthToDate: Number(snapshot?.due_month_to_date),
      collectedMonthToDate: 0,
      par1Amount: Number(snapshot?.par1_amount),
      par30Amount: Number(snapshot?.par30_amount),
      par90Amount: 0,
      par1Ratio: Number(snapshot?.par1_ratio),
      par30Ratio: Number(snapshot?.par30_ratio),
      par90Ratio: 0,
      lockedCount: 0,
      queueCount: 2,
    });
    expect(latest?.par30Amount).toBeGreaterThan(0);
    expect(latest?.par30Ratio).toBeGreaterThan(0);
    expect(latest?.dueMonthToDate).toBeGreaterThan(0);
    // Back-filled days know no lock states; their queue is counted as of each date.
    expect(kpis.points[0]).toMatchObject({ lockedCount: null, queueCount: 1 });
  });
});
