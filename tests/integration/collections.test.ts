import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueRow } from '../../src/contracts/collections';
import { queryRows } from '../../src/db/client';
import { addDays, messageDate, priorityScore } from '../../src/domain';
import { SYSTEM_ACTOR } from '../../src/server/audit';
import { refreshCases } from '../../src/server/modules/collections/refresh';
import { scorePartsSql } from '../../src/server/modules/collections/score-sql';
import { refreshDelinquency } from '../../src/server/modules/contracts/delinquency';
import { organisation, saveBusinessDateOffset } from '../../src/server/organisation';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';

const TODAY = '2024-03-01';
const TOMORROW = addDays(TODAY, 1);
const NOON = Date.parse(`${TODAY}T12:00:00Z`);

type Signed = TestClient & { user: { id: string } };
type Page = { items: QueueRow[]; total: number };

describe.each(DATABASE_KINDS)('collections on %s', (kind) => {
  let t: TestApp;
  let manager: Signed;
  let collector1: Signed;
  let collector2: Signed;
  let viewer: Signed;
  let agent: Signed;
  const ids: Record<string, string> = {};

  const monthly = (startDate: string, controlKind: 'lock_api' | 'openpaygo' | 'none' = 'none') =>
    insertActiveContract(t.app.ctx, {
      principal: 60_000,
      apr: 24,
      frequency: 'monthly',
      term: 6,
      startDate,
      terms: {
        lateFeeKind: 'none',
        lateFeeValue: 0,
        graceDays: 0,
        lockAfterDays: 90,
        defaultAfterDays: null,
      },
      controlKind,
    });

  const queue = async (client: TestClient, query = '') => {
    const res = await client.get(`/api/collections/queue${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = NOON;
    await organisation(t.app.ctx, t.app.ctx.db);
    // a: 3 months overdue (North, grade D, lock API); b: 1 month overdue (South, grade A, OpenPAYGO);
    // c: current; d, e, f: North, 2 months overdue.
    ids.a = (await monthly('2023-11-30', 'lock_api')).id;
    ids.b = (await monthly('2024-01-20', 'openpaygo')).id;
    ids.c = (await monthly('2024-02-20')).id;
    ids.d = (await monthly('2023-12-20')).id;
    ids.e = (await monthly('2023-12-21')).id;
    ids.f = (await monthly('2023-12-22')).id;
    const setCustomer = (id: string, region: string, grade: string | null) =>
      t.app.ctx.db.execute(
        sql`UPDATE customers SET region = ${region}, risk_grade = ${grade}
            WHERE id = (SELECT customer_id FROM contracts WHERE id = ${id})`,
      );
    await setCustomer(ids.a as string, 'North', 'D');
    await setCustomer(ids.b as string, 'South', 'A');
    await setCustomer(ids.c as string, 'North', 'B');
    for (const key of ['d', 'e', 'f']) await setCustomer(ids[key] as string, 'North', null);
    // Activated long before the clock's day, so payments may be received on it.
    await t.app.ctx.db.execute(sql`UPDATE contracts SET activated_at = start_date::timestamptz`);
    await refreshDelinquency(t.app.ctx, TODAY);
    manager = (await t.signedIn('manager')) as Signed;
    collector1 = (await t.signedIn('collector')) as Signed;
    collector2 = (await t.signedIn('collector')) as Signed;
    viewer = (await t.signedIn('viewer')) as Signed;
    agent = (await t.signedIn('agent')) as Signed;
    const refreshed = await manager.post('/api/collections/refresh', {});
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('scores in SQL exactly as the pure function does', async () => {
    const inputs = fc.sample(
      fc.record({
        dpd: fc.integer({ min: 0, max: 400 }),
        amountOverdue: fc.integer({ min: 0, max: 50_000_000 }),
        regularPayment: fc.integer({ min: 0, max: 2_000_000 }),
        riskGrade: fc.constantFrom('A', 'B', 'C', 'D', 'E', 'X', null),
        brokenPromises: fc.integer({ min: 0, max: 6 }),
        daysSinceContact: fc.option(fc.integer({ min: 0, max: 100 })),
      }),
      300,
    );
    const col = <T>(pick: (i: (typeof inputs)[number]) => T) => sql.param(inputs.map(pick));
    const parts = scorePartsSql({
      dpd: sql`v.dpd`,
      amountOverdue: sql`v.amount`,
      regularPayment: sql`v.payment`,
      riskGrade: sql`v.grade`,
      brokenPromises: sql`v.broken`,
      daysSinceContact: sql`v.days`,
    });
    const rows = await queryRows<Record<string, number>>(
      t.app.ctx.db,
      sql`SELECT ${parts.dpd} AS dpd, ${parts.amount} AS amount, ${parts.risk} AS risk,
                 ${parts.promises} AS promises, ${parts.contact} AS contact
          FROM unnest(${col((i) => i.dpd)}::int[], ${col((i) => i.amountOverdue)}::bigint[],
                      ${col((i) => i.regularPayment)}::bigint[], ${col((i) => i.riskGrade)}::text[],
                      ${col((i) => i.brokenPromises)}::int[], ${col((i) => i.daysSinceContact)}::int[])
               WITH ORDINALITY AS v(dpd, amount, payment, grade, broken, days, n)
          ORDER BY v.n`,
    );
    rows.forEach((row, index) => {
      const expected = priorityScore(inputs[index] as Parameters<typeof priorityScore>[0]).parts;
      expect(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]))).toEqual(expected);
    });
  });

  it('ranks the queue by the score, each row with the parts that make it', async () => {
    const page = await queue(collector1);
    const numbers = page.items.map((row) => row.contractId);
    expect(numbers).not.toContain(ids.c);
    expect(new Set(numbers)).toEqual(new Set([ids.a, ids.b, ids.d, ids.e, ids.f]));
    expect(page.items[0]?.contractId).toBe(ids.a);
    for (let i = 1; i < page.items.length; i++)
      expect(page.items[i - 1]?.score).toBeGreaterThanOrEqual(page.items[i]?.score ?? 0);
    for (const row of page.items) {
      const expected = priorityScore({
        dpd: row.dpd,
        amountOverdue: row.amountOverdue,
        regularPayment: row.regularPayment,
        riskGrade: row.riskGrade,
        brokenPromises: row.brokenPromises,
        daysSinceContact: row.daysSinceContact,
      });
      expect(row.parts).toEqual(expected.parts);
      expect(row.score).toBe(expected.total);
      expect(row.amountOverdue).toBeGreaterThan(0);
      expect(row.scoredOn).toBe(TODAY);
    }
    expect(page.total).toBe(5);
  });

  it('filters by bucket, region, plan and promise state, and searches', async () => {
    const a = (await queue(collector1)).items.find((row) => row.contractId === ids.a) as QueueRow;
    const byBucket = await queue(collector1, `?bucket=${encodeURIComponent(a.bucket)}`);
    expect(byBucket.items.every((row) => row.bucket === a.bucket)).toBe(true);
    expect(byBucket.items.map((row) => row.contractId)).toContain(ids.a);
    const south = await queue(collector1, '?region=South');
    expect(south.items.map((row) => row.contractId)).toEqual([ids.b]);
    const [plan] = await queryRows<{ plan_id: string }>(
      t.app.ctx.db,
      sql`SELECT plan_id FROM contracts WHERE id = ${ids.d}`,
    );
    const byPlan = await queue(collector1, `?planId=${plan?.plan_id}`);
    expect(byPlan.items.map((row) => row.contractId)).toEqual([ids.d]);
    expect((await queue(collector1, '?promiseState=none')).total).toBe(5);
    expect((await queue(collector1, '?promiseState=broken')).total).toBe(0);
    const search = await queue(collector1, `?q=${encodeURIComponent(a.contractNumber)}`);
    expect(search.items.map((row) => row.contractId)).toEqual([ids.a]);
    const bad = await collector1.get('/api/collections/queue?promiseState=lost');
    expect(bad.statusCode).toBe(400);
  });

  it('refuses the queue to viewers and assignment to collectors', async () => {
    expect((await viewer.get('/api/collections/queue')).statusCode).toBe(403);
    expect(
      (
        await collector1.post('/api/collections/assign', {
          contractIds: [ids.a],
          collectorId: collector1.user.id,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await agent.post(`/api/collections/contracts/${ids.a}/actions`, { kind: 'call', outcome: 'reached' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await collector1.get('/api/collections/performance?from=2024-03-01&to=2024-03-31')).statusCode,
    ).toBe(403);
  });

  it('assigns by hand (audited) and shows my queue', async () => {
    const res = await manager.post('/api/collections/assign', {
      contractIds: [ids.a],
      collectorId: collector1.user.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ assigned: 1, skipped: 0 });
    const mine = await queue(collector1, '?mine=true');
    expect(mine.items.map((row) => row.contractId)).toEqual([ids.a]);
    expect(mine.items[0]?.collectorId).toBe(collector1.user.id);
    expect((await queue(collector2, '?mine=true')).total).toBe(0);
    const refused = await manager.post('/api/collections/assign', {
      contractIds: [ids.b],
      collectorId: agent.user.id,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].field).toBe('collectorId');
    const [audit] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'collections.assign'`,
    );
    expect(Number(audit?.n)).toBeGreaterThanOrEqual(1);
  });

  it('assigns automatically round-robin by region, never beyond a cap', async () => {
    const save = async (who: Signed, regions: string[], maxOpenCases: number) => {
      const res = await manager.put(`/api/collections/collectors/${who.user.id}`, {
        regions,
        maxOpenCases,
        active: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // collector1 works the North with room for one more (a is theirs); collector2 any region, room for one.
    expect((await save(collector1, ['North'], 2)).openCases).toBe(1);
    await save(collector2, [], 1);
    const res = await manager.post('/api/collections/auto-assign', {});
    expect(res.statusCode, res.body).toBe(200);
    // North: d, e, f wait; one each. South: b waits; both are full.
    expect(res.json()).toEqual({ assigned: 2, skipped: 2 });
    const collectors = (await manager.get('/api/collections/collectors')).json<{
      collectors: { userId: string; openCases: number; maxOpenCases: number }[];
    }>().collectors;
    for (const who of [collector1, collector2]) {
      const row = collectors.find((c) => c.userId === who.user.id);
      expect(row?.openCases).toBe(row?.maxOpenCases);
    }
    const north = await queue(manager, '?region=North&unassigned=true');
    expect(north.total).toBe(1);
    // The two highest-scored North cases were dealt, one to each collector.
    const first = (await queue(collector1, '?mine=true')).items.map((row) => row.contractId);
    const second = (await queue(collector2, '?mine=true')).items.map((row) => row.contractId);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
    expect(second.some((id) => id === ids.b)).toBe(false);
  });

  it('logs actions with per-field checks, on the contract and customer timelines', async () => {
    const missing = await collector1.post(`/api/collections/contracts/${ids.a}/actions`, { kind: 'promise' });
    expect(missing.statusCode).toBe(400);
    expect(
      missing
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['promiseAmount', 'promiseDate']);
    const noOutcome = await collector1.post(`/api/collections/contracts/${ids.a}/actions`, { kind: 'call' });
    expect(noOutcome.statusCode).toBe(400);
    const past = await collector1.post(`/api/collections/contracts/${ids.a}/actions`, {
      kind: 'promise',
      promiseDate: addDays(TODAY, -1),
      promiseAmount: 1_000,
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors[0].field).toBe('promiseDate');

    const call = await collector1.post(`/api/collections/contracts/${ids.a}/actions`, {
      kind: 'call',
      outcome: 'reached',
      note: 'Customer says salary comes tomorrow',
    });
    expect(call.statusCode, call.body).toBe(201);
    expect(call.json()).toMatchObject({ kind: 'call', outcome: 'reached', actorId: collector1.user.id });
    const contract = (await collector1.get(`/api/contracts/${ids.a}`)).json<{
      customer: { id: string };
      events: { type: string; message: string }[];
    }>();
    expect(contract.events.find((e) => e.type === 'collection_call')?.message).toContain(
      'Call: reached the customer',
    );
    const timeline = (await collector1.get(`/api/customers/${contract.customer.id}/timeline`)).json<
      { action: string; summary: string }[]
    >();
    expect(timeline.find((e) => e.action === 'collections.action')?.summary).toContain('Call');
    // The case was scored again: contacted today.
    const a = (await queue(collector1, '?mine=true')).items.find((row) => row.contractId === ids.a);
    expect(a?.daysSinceContact).toBe(0);
    expect(a?.parts.contact).toBe(0);
  });

  it('escalates to a lock through the devices area, where the unit takes one', async () => {
    t.clock.ms += 60_000;
    const lock = await collector1.post(`/api/collections/contracts/${ids.a}/actions`, {
      kind: 'escalate_lock',
      note: 'Three months behind, no answer to visits',
    });
    expect(lock.statusCode, lock.body).toBe(201);
    const [command] = await queryRows<{ kind: string; state: string; source_type: string }>(
      t.app.ctx.db,
      sql`SELECT kind, state, source_type FROM device_commands WHERE contract_id = ${ids.a}`,
    );
    expect(command).toEqual({ kind: 'lock', state: 'queued', source_type: 'collection_action' });
    expect(lock.json().deviceCommandId).toBeTruthy();
    const again = await collector1.post(`/api/collections/contracts/${ids.a}/actions`, {
      kind: 'escalate_lock',
      note: 'again',
    });
    expect(again.statusCode).toBe(409);
    const openpaygo = await collector1.post(`/api/collections/contracts/${ids.b}/actions`, {
      kind: 'escalate_lock',
      note: 'Lock it',
    });
    expect(openpaygo.statusCode).toBe(422);
  });

  it('checks promises at the close of business: kept, partly kept, broken, and tells the collector', async () => {
    const promise = async (client: TestClient, id: string, amount: number) => {
      const res = await client.post(`/api/collections/contracts/${id}/actions`, {
        kind: 'promise',
        promiseDate: TOMORROW,
        promiseAmount: amount,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    const [dOwner] = await queryRows<{ collector_id: string }>(
      t.app.ctx.db,
      sql`SELECT collector_id FROM collection_cases WHERE contract_id = ${ids.d}`,
    );
    t.clock.ms += 60_000;
    await promise(collector1, ids.a as string, 10_000);
    await promise(collector1, ids.b as string, 10_000);
    await promise(collector2, ids.d as string, 5_000);
    const pay = async (id: string, amount: number) => {
      const res = await manager.post('/api/payments', { contractId: id, amount, method: 'cash' });
      expect(res.statusCode, res.body).toBe(201);
    };
    await pay(ids.a as string, 10_000);
    await pay(ids.b as string, 4_000);

    // The next business day (the sessions stay on the real clock, decision 019).
    await withTransaction(t.app.ctx, (tx) => saveBusinessDateOffset(tx, SYSTEM_ACTOR, 1));
    const closed = await manager.post('/api/eod/run', { businessDate: TOMORROW });
    expect(closed.statusCode, closed.body).toBe(200);
    const step = closed
      .json<{ runs: { businessDate: string; steps: { step: string; counts: Record<string, number> }[] }[] }>()
      .runs.find((run) => run.businessDate === TOMORROW)
      ?.steps.find((s) => s.step === 'promises');
    expect(step?.counts).toMatchObject({ checked: 3, kept: 1, partlyKept: 1, broken: 1 });

    const promises = (await collector1.get('/api/collections/promises?pageSize=50')).json<{
      items: { contractId: string; state: string; amountPaid: number }[];
    }>().items;
    const stateOf = (id: string) => promises.find((p) => p.contractId === id);
    expect(stateOf(ids.a as string)).toMatchObject({ state: 'kept', amountPaid: 10_000 });
    expect(stateOf(ids.b as string)).toMatchObject({ state: 'partly_kept', amountPaid: 4_000 });
    expect(stateOf(ids.d as string)).toMatchObject({ state: 'broken', amountPaid: 0 });

    // d's collector (whoever the round-robin gave it to) hears of the broken promise.
    const notices = await queryRows<{ user_id: string; title: string }>(
      t.app.ctx.db,
      sql`SELECT user_id, title FROM notifications WHERE title LIKE 'Promise to pay%'`,
    );
    expect(notices).toContainEqual({ user_id: dOwner?.collector_id, title: 'Promise to pay broken' });
    const broken = await queue(collector1, '?promiseState=broken');
    expect(broken.items.map((row) => row.contractId)).toEqual([ids.d]);
    expect(broken.items[0]?.brokenPromises).toBe(1);
    expect(broken.items[0]?.parts.promises).toBe(60);

    const contract = (await collector1.get(`/api/contracts/${ids.d}`)).json<{ events: { type: string }[] }>();
    expect(contract.events.map((e) => e.type)).toContain('promise_broken');
    // The customer is told, with the promised date as customers read one (not 2026-05-16).
    const told = await queryRows<{ body: string }>(
      t.app.ctx.db,
      sql`SELECT body FROM messages WHERE contract_id = ${ids.d} AND template_key = 'broken_promise'`,
    );
    expect(told.map((m) => m.body)).toEqual([expect.stringContaining(` on ${messageDate(TOMORROW)}.`)]);

    // A second run of the date changes nothing.
    const before = await queryRows(
      t.app.ctx.db,
      sql`SELECT id, state, amount_paid, checked_on FROM collection_promises ORDER BY id`,
    );
    const again = await manager.post('/api/eod/run', { businessDate: TOMORROW });
    expect(again.statusCode).toBe(200);
    const after = await queryRows(
      t.app.ctx.db,
      sql`SELECT id, state, amount_paid, checked_on FROM collection_promises ORDER BY id`,
    );
    expect(after).toEqual(before);
    const [count] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM notifications WHERE title LIKE 'Promise to pay%'`,
    );
    expect(Number(count?.n)).toBe(notices.length);
  });

  it('shows the contract case and the collectors’ performance', async () => {
    const kase = await collector1.get(`/api/collections/contracts/${ids.a}`);
    expect(kase.statusCode).toBe(200);
    expect(kase.json().actions.map((a: { kind: string }) => a.kind)).toEqual([
      'promise',
      'escalate_lock',
      'call',
    ]);
    expect(kase.json().promises[0].state).toBe('kept');
    const res = await manager.get(`/api/collections/performance?from=${TODAY}&to=${TOMORROW}`);
    expect(res.statusCode, res.body).toBe(200);
    const one = res
      .json()
      .collectors.find((c: { collectorId: string }) => c.collectorId === collector1.user.id);
    expect(one).toMatchObject({ contacts: 3, promises: 2, promisesDue: 2, kept: 1, keptRate: 0.5 });
    // Paid on their cases since assigned: a's 10,000 (b, paid 4,000, is nobody's).
    expect(one.amountCollected).toBe(10_000);
    const bad = await manager.get(`/api/collections/performance?from=${TOMORROW}&to=${TODAY}`);
    expect(bad.statusCode).toBe(400);
  });

  it('logs an action on a contract back out of arrears, whose case leaves the queue', async () => {
    // c, current, had a case while it was a few days late; scored again with no promise it is
    // out of the queue (in_queue was NULL there, and writing the case failed).
    const setDpd = (dpd: number) =>
      t.app.ctx.db.execute(
        sql`UPDATE contract_figures SET arrears_since = ${dpd > 0 ? addDays(TODAY, -dpd) : null}::date WHERE contract_id = ${ids.c}`,
      );
    await setDpd(5);
    await withTransaction(t.app.ctx, (tx) => refreshCases(tx, TODAY, [ids.c as string]));
    await setDpd(0);
    const message = await collector2.post(`/api/collections/contracts/${ids.c}/actions`, {
      kind: 'message',
      note: 'Reminded of the next instalment',
    });
    expect(message.statusCode, message.body).toBe(201);
    const kase = (await collector2.get(`/api/collections/contracts/${ids.c}`)).json<{ inQueue: boolean }>();
    expect(kase.inQueue).toBe(false);
    expect((await queue(manager)).items.map((row) => row.contractId)).not.toContain(ids.c);
  });
});
