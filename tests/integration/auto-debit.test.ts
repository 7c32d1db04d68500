import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/contracts/contracts';
import { queryRows } from '../../src/db/client';
import { debitAttempts, payments } from '../../src/db/schema';
import { addDays } from '../../src/domain';
import { runAutoDebit } from '../../src/server/modules/payments/auto-debit/job';
import { simulatorProvider } from '../../src/server/modules/payments/auto-debit/provider';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activeContract, type OriginationStaff } from '../support/origination';
import { lastAudit } from '../support/records';

const succeeding = simulatorProvider({ failureRate: 0 });
const failing = simulatorProvider({ failureRate: 1, permanentShare: 0 });
const refusing = simulatorProvider({ failureRate: 1, permanentShare: 1 });

/** Issue 13 §A: mandates, the auto-debit job's attempts and retries, and the monitor. */
describe.each(DATABASE_KINDS)('auto-debit on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let finance: TestClient & { user: { id: string } };
  let staff: OriginationStaff;

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { BUSINESS_DATE_CONTROL: 'true', AUTO_DEBIT_FAILURE_RATE: '0' } });
    admin = await t.signedIn('admin');
    finance = await t.signedIn('finance');
    staff = {
      agent: await t.signedIn('agent'),
      manager: await t.signedIn('manager'),
      reviewer: await t.signedIn('manager'),
    };
  });
  afterAll(() => t.close());

  const today = async () => (await admin.get('/api/business-date')).json().businessDate as string;
  async function moveTo(date: string) {
    const moved = await admin.put('/api/business-date', { businessDate: date });
    expect(moved.statusCode, moved.body).toBe(200);
  }
  async function withMandate(): Promise<{ contract: Contract; mandateId: string }> {
    const contract = await activeContract(t, staff);
    const created = await finance.post(`/api/contracts/${contract.id}/mandates`, {
      method: 'mobile_money',
      account: '+254700000001',
      consentReference: `CONSENT-${contract.number}`,
    });
    expect(created.statusCode, created.body).toBe(201);
    return { contract, mandateId: created.json().id };
  }
  const attemptsOf = (contractId: string) =>
    t.app.ctx.db
      .select()
      .from(debitAttempts)
      .where(eq(debitAttempts.contractId, contractId))
      .orderBy(debitAttempts.dueDate, debitAttempts.attempt);
  const autoDebitPayments = (contractId: string) =>
    t.app.ctx.db
      .select()
      .from(payments)
      .where(and(eq(payments.contractId, contractId), eq(payments.method, 'auto_debit')));
  /** Each attempt's retry as the attempts list answers it, in attempt order. */
  async function retriesOf(contractId: string) {
    const list = await finance.get(`/api/auto-debit/attempts?contractId=${contractId}&pageSize=50`);
    expect(list.statusCode, list.body).toBe(200);
    return (list.json().items as { attempt: number; retry: unknown }[])
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => [a.attempt, a.retry]);
  }
  /** Pauses a scenario's mandate so that its later instalments stay out of the next scenarios. */
  const pause = (mandateId: string) =>
    finance.post(`/api/mandates/${mandateId}/pause`, { reason: 'end of this scenario' });

  it('creates, lists, pauses and resumes a mandate, audited', async () => {
    const { contract, mandateId } = await withMandate();
    expect(await lastAudit(t.app.ctx.db, 'mandate.create')).toMatchObject({
      entityType: 'debit_mandate',
      entityId: mandateId,
      actorId: finance.user.id,
    });
    const again = await finance.post(`/api/contracts/${contract.id}/mandates`, {
      method: 'mobile_money',
      account: '+254700000002',
      consentReference: 'C-2',
    });
    expect(again.statusCode).toBe(409);
    const bad = await finance.post(`/api/contracts/${contract.id}/mandates`, {
      method: 'cheque',
      account: '',
      consentReference: 'C-3',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['account', 'method']);
    const agent = await staff.agent.post(`/api/contracts/${contract.id}/mandates`, {
      method: 'card',
      account: 'tok_1',
      consentReference: 'C-4',
    });
    expect(agent.statusCode).toBe(403);

    const listed = (await finance.get(`/api/contracts/${contract.id}/mandates`)).json();
    expect(listed.mandates).toEqual([
      expect.objectContaining({
        id: mandateId,
        contractNumber: contract.number,
        method: 'mobile_money',
        active: true,
        pausedReason: null,
      }),
    ]);
    expect(listed.attempts).toEqual([]);
    const all = (await finance.get(`/api/mandates?q=${contract.number}`)).json();
    expect(all.total).toBe(1);
    expect(all.items[0]).toMatchObject({ id: mandateId, customerName: expect.any(String) });

    const paused = await finance.post(`/api/mandates/${mandateId}/pause`, { reason: 'customer asked' });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ active: false, pausedReason: 'customer asked' });
    expect(await lastAudit(t.app.ctx.db, 'mandate.update')).toMatchObject({
      entityId: mandateId,
      before: { active: true },
      after: { active: false, pausedReason: 'customer asked' },
    });
    expect((await finance.post(`/api/mandates/${mandateId}/pause`, { reason: 'again' })).statusCode).toBe(
      409,
    );
    expect(
      (await finance.get('/api/mandates?active=false')).json().items.map((m: { id: string }) => m.id),
    ).toContain(mandateId);
    const resumed = await finance.post(`/api/mandates/${mandateId}/resume`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ active: true, pausedReason: null });
    await pause(mandateId);
  });

  it('debits due instalments with a failure rate of 0, posting auto_debit payments, and a re-run changes nothing', async () => {
    const { contract, mandateId } = await withMandate();
    const first = contract.schedule[0];
    if (!first) throw new Error('no schedule');
    // Nothing is due yet.
    expect((await runAutoDebit(t.app.ctx, succeeding)).scheduled).toBe(0);
    expect(await attemptsOf(contract.id)).toEqual([]);

    await moveTo(first.dueDate);
    const run = await runAutoDebit(t.app.ctx); // the configured simulator: AUTO_DEBIT_FAILURE_RATE=0
    expect(run).toMatchObject({ scheduled: 1, succeeded: 1, retrying: 0, failed: 0, errors: 0 });
    const [attempt] = await attemptsOf(contract.id);
    expect(attempt).toMatchObject({
      mandateId,
      dueDate: first.dueDate,
      attempt: 1,
      status: 'succeeded',
      amount: first.total,
      providerReference: expect.stringMatching(/^SIM-/),
    });
    const posted = await autoDebitPayments(contract.id);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      id: attempt?.paymentId,
      amount: first.total,
      status: 'posted',
      provider: 'simulator',
      reference: attempt?.providerReference,
      valueDate: first.dueDate,
    });
    const after = (await finance.get(`/api/contracts/${contract.id}`)).json() as Contract;
    expect(after.schedule[0]?.status).toBe('paid');
    expect(after.outstanding.total).toBe(contract.outstanding.total - first.total);

    // Idempotent: the same day again changes nothing.
    expect(await runAutoDebit(t.app.ctx, succeeding)).toMatchObject({ scheduled: 0, succeeded: 0 });
    expect(await attemptsOf(contract.id)).toHaveLength(1);
    expect(await autoDebitPayments(contract.id)).toHaveLength(1);

    const card = (await finance.get(`/api/contracts/${contract.id}/mandates`)).json();
    expect(card.attempts).toEqual([
      expect.objectContaining({
        status: 'succeeded',
        scheduledFor: first.dueDate,
        paymentId: attempt?.paymentId,
      }),
    ]);
    const summary = (await finance.get('/api/auto-debit/summary')).json();
    expect(summary).toMatchObject({ asOf: first.dueDate, successRate: 1, attempted: 1, succeeded: 1 });
    expect(summary.counts.succeeded).toBe(1);
    expect(summary.collected).toBe(first.total);
    await pause(mandateId);
  });

  it('retries a failed debit after 1 and 3 days, then fails it; re-runs change nothing', async () => {
    const { contract, mandateId } = await withMandate();
    const due = contract.schedule[0]?.dueDate as string;
    await moveTo(due);
    expect(await runAutoDebit(t.app.ctx, failing)).toMatchObject({ scheduled: 1, retrying: 1 });
    let attempts = await attemptsOf(contract.id);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'retrying'],
      [2, 'scheduled'],
    ]);
    expect(attempts[0]?.failureReason).toEqual(expect.any(String));
    expect(attempts[1]?.scheduledFor.toISOString().slice(0, 10)).toBe(addDays(due, 1));
    // As staff read it: the failed attempt names its retry, and the monitor counts it.
    expect(await retriesOf(contract.id)).toEqual([
      [1, { status: 'scheduled', scheduledFor: addDays(due, 1) }],
      [2, null],
    ]);
    const [scheduledRetries] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM debit_attempts WHERE status = 'scheduled' AND attempt > 1`,
    );
    expect(scheduledRetries?.n).toBeGreaterThan(0);
    expect((await finance.get('/api/auto-debit/summary')).json().retriesScheduled).toBe(scheduledRetries?.n);

    // Same day: the retry is not due yet.
    expect(await runAutoDebit(t.app.ctx, failing)).toMatchObject({ scheduled: 0, retrying: 0, failed: 0 });
    expect(await attemptsOf(contract.id)).toHaveLength(2);

    await moveTo(addDays(due, 1));
    expect(await runAutoDebit(t.app.ctx, failing)).toMatchObject({ retrying: 1 });
    attempts = await attemptsOf(contract.id);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'scheduled'],
    ]);
    expect(attempts[2]?.scheduledFor.toISOString().slice(0, 10)).toBe(addDays(due, 4));
    expect(await retriesOf(contract.id)).toEqual([
      [1, { status: 'retrying', scheduledFor: addDays(due, 1) }],
      [2, { status: 'scheduled', scheduledFor: addDays(due, 4) }],
      [3, null],
    ]);

    await moveTo(addDays(due, 4));
    expect(await runAutoDebit(t.app.ctx, failing)).toMatchObject({ failed: 1 });
    attempts = await attemptsOf(contract.id);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'failed'],
    ]);
    expect((await retriesOf(contract.id))[1]).toEqual([
      2,
      { status: 'failed', scheduledFor: addDays(due, 4) },
    ]);
    // Exhausted: no new attempt for the same instalment, however often it runs.
    expect(await runAutoDebit(t.app.ctx, failing)).toMatchObject({ scheduled: 0, failed: 0 });
    expect(await attemptsOf(contract.id)).toHaveLength(3);
    expect(await autoDebitPayments(contract.id)).toEqual([]);

    const failures = (await finance.get('/api/auto-debit/attempts?status=failed')).json();
    expect(failures.items.map((a: { contractId: string }) => a.contractId)).toContain(contract.id);
    const summary = (await finance.get('/api/auto-debit/summary')).json();
    expect(summary.successRate).toBeLessThan(1);
    expect(summary.failureReasons.length).toBeGreaterThan(0);
    expect(summary.recentFailures.map((a: { contractId: string }) => a.contractId)).toContain(contract.id);
    await pause(mandateId);
  });

  it('drops a retry the instalment no longer needs, and says so of the failed attempt', async () => {
    const { contract, mandateId } = await withMandate();
    const first = contract.schedule[0];
    if (!first) throw new Error('no schedule');
    await moveTo(first.dueDate);
    expect(await runAutoDebit(t.app.ctx, failing)).toMatchObject({ retrying: 1 });
    const paid = await staff.agent.post('/api/payments', {
      contractId: contract.id,
      amount: first.total,
      method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    await moveTo(addDays(first.dueDate, 1));
    await runAutoDebit(t.app.ctx, failing);
    expect((await attemptsOf(contract.id)).map((a) => [a.attempt, a.status])).toEqual([[1, 'retrying']]);
    expect(await retriesOf(contract.id)).toEqual([[1, null]]);
    const csv = await finance.get(`/api/auto-debit/attempts?contractId=${contract.id}&format=csv`);
    expect(csv.statusCode).toBe(200);
    const [header, row] = csv.body.trim().split(/\r?\n/);
    expect(header).toMatch(/,Retry,Retry scheduled for$/);
    expect(row).toMatch(/,none,$/);
    await pause(mandateId);
  });

  it('pauses a mandate when the provider refuses for good, audited by the system', async () => {
    const { contract, mandateId } = await withMandate();
    await moveTo(contract.schedule[0]?.dueDate as string);
    expect(await runAutoDebit(t.app.ctx, refusing)).toMatchObject({ failed: 1 });
    expect((await attemptsOf(contract.id)).map((a) => a.status)).toEqual(['failed']);
    const mandate = (await finance.get(`/api/contracts/${contract.id}/mandates`)).json().mandates[0];
    expect(mandate).toMatchObject({ id: mandateId, active: false });
    expect(mandate.pausedReason).toMatch(/refused/);
    expect(await lastAudit(t.app.ctx.db, 'mandate.update')).toMatchObject({
      entityId: mandateId,
      actorId: null,
      after: { active: false },
    });
  });

  it('makes no attempts on a paused mandate, and catches up when it is resumed', async () => {
    const { contract, mandateId } = await withMandate();
    await pause(mandateId);
    const due = contract.schedule[0]?.dueDate as string;
    await moveTo(due);
    await runAutoDebit(t.app.ctx, succeeding);
    expect(await attemptsOf(contract.id)).toEqual([]);
    expect((await finance.post(`/api/mandates/${mandateId}/resume`)).statusCode).toBe(200);
    await runAutoDebit(t.app.ctx, succeeding);
    expect((await attemptsOf(contract.id)).map((a) => a.status)).toEqual(['succeeded']);
    expect(await today()).toBe(due);
  });

  it('schedules nothing for an instalment already paid another way', async () => {
    const { contract } = await withMandate();
    const first = contract.schedule[0];
    if (!first) throw new Error('no schedule');
    await moveTo(first.dueDate);
    const paid = await staff.agent.post('/api/payments', {
      contractId: contract.id,
      amount: first.total,
      method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    await runAutoDebit(t.app.ctx, succeeding);
    expect(await attemptsOf(contract.id)).toEqual([]);
  });
  it('shows each active mandate’s next instalment as its next debit, at what is owed on it now', async () => {
    const { contract, mandateId } = await withMandate();
    const [first, second] = contract.schedule;
    if (!first || !second) throw new Error('no schedule');
    const nextOf = async () => {
      const summary = (await finance.get('/api/auto-debit/summary')).json();
      return summary.nextDebits.find((d: { contractId: string }) => d.contractId === contract.id);
    };
    expect(await nextOf()).toEqual({
      mandateId,
      contractId: contract.id,
      contractNumber: contract.number,
      customerName: expect.any(String),
      method: 'mobile_money',
      dueDate: first.dueDate,
      amount: first.total,
      currency: contract.currency,
    });
    // Part paid early: the attempt will ask for the rest.
    const paid = await staff.agent.post('/api/payments', {
      contractId: contract.id,
      amount: 1_000,
      method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await nextOf()).toMatchObject({ dueDate: first.dueDate, amount: first.total - 1_000 });

    // Once the due date's attempt is made, the next instalment is the next debit.
    await moveTo(first.dueDate);
    await runAutoDebit(t.app.ctx, succeeding);
    expect((await attemptsOf(contract.id)).map((a) => a.dueDate)).toEqual([first.dueDate]);
    expect(await nextOf()).toMatchObject({ dueDate: second.dueDate, amount: second.total });
    // The contract page's card says the same.
    const card = (await finance.get(`/api/contracts/${contract.id}/mandates`)).json();
    expect(card.next).toEqual(await nextOf());

    // A paused mandate debits nothing.
    await pause(mandateId);
    expect(await nextOf()).toBeUndefined();
    expect((await finance.get(`/api/contracts/${contract.id}/mandates`)).json().next).toBeNull();

    // Resumed after an instalment fell due unattempted: the job's next run debits it, overdue.
    await moveTo(addDays(second.dueDate, 1));
    expect((await finance.post(`/api/mandates/${mandateId}/resume`)).statusCode).toBe(200);
    expect(await nextOf()).toMatchObject({ dueDate: second.dueDate, amount: second.total });
    await runAutoDebit(t.app.ctx, succeeding);
    expect((await attemptsOf(contract.id)).map((a) => a.dueDate)).toEqual([first.dueDate, second.dueDate]);
    expect(await nextOf()).toMatchObject({ dueDate: contract.schedule[2]?.dueDate });
    await pause(mandateId);
  });
});
