import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import {
  addDays,
  bucketsFromBounds,
  daysBetween,
  delinquencySnapshot,
  sumComponents,
} from '../../src/domain';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activeContract } from '../support/origination';

type Op =
  | { kind: 'pay'; amount: number }
  | { kind: 'backdated'; amount: number; back: number }
  | { kind: 'reverse'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 160_000 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('backdated' as const),
      amount: fc.integer({ min: 1, max: 80_000 }),
      back: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }) },
);

/**
 * Issue 13: random sequences of payments, back-dated payments and reversals on one contract, then
 * the invariants: allocations sum to payments, outstanding = scheduled due - allocated, the trial
 * balance nets to zero (and the contract's receivable and credit accounts match its figures),
 * paid-through and the device's state match the contract.
 */
describe.each(DATABASE_KINDS)('payment invariants on %s', (kind) => {
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

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.app.ctx.db, query);

  async function checkInvariants(contractId: string): Promise<void> {
    const perPayment = await rows<{ id: string; status: string; amount: string; lines: string | null }>(
      sql`SELECT p.id, p.status, p.amount,
        (SELECT sum(a.amount) FROM payment_allocations a WHERE a.payment_id = p.id AND a.superseded_at IS NULL) AS lines
        FROM payments p WHERE p.contract_id = ${contractId} AND p.method <> 'deposit'`,
    );
    for (const p of perPayment) {
      expect([p.id, Number(p.lines ?? 0)]).toEqual([p.id, p.status === 'posted' ? Number(p.amount) : 0]);
    }
    const installments = await rows<{
      n: number;
      due_date: string;
      principal_due: string;
      interest_due: string;
      fee_due: string;
      penalty_due: string;
      principal_paid: string;
      interest_paid: string;
      fee_paid: string;
      penalty_paid: string;
      settled_at: string | null;
      allocated: Record<string, number> | null;
    }>(
      sql`SELECT i.n, i.due_date::text AS due_date, i.principal_due, i.interest_due, i.fee_due, i.penalty_due,
        i.principal_paid, i.interest_paid, i.fee_paid, i.penalty_paid, i.settled_at::text AS settled_at,
        (SELECT json_object_agg(component, total) FROM (SELECT a.component, sum(a.amount) AS total FROM payment_allocations a
          WHERE a.contract_id = i.contract_id AND a.installment_number = i.n AND a.superseded_at IS NULL GROUP BY a.component) s) AS allocated
        FROM contract_installments i JOIN contracts c ON c.id = i.contract_id AND c.schedule_version = i.schedule_version
        WHERE i.contract_id = ${contractId} ORDER BY i.n`,
    );
    for (const i of installments) {
      const allocated = i.allocated ?? {};
      expect([
        i.n,
        Number(i.principal_paid),
        Number(i.interest_paid),
        Number(i.fee_paid),
        Number(i.penalty_paid),
      ]).toEqual([
        i.n,
        Number(allocated.principal ?? 0),
        Number(allocated.interest ?? 0),
        Number(allocated.fee ?? 0),
        Number(allocated.penalty ?? 0),
      ]);
      const open =
        Number(i.principal_due) +
        Number(i.interest_due) +
        Number(i.fee_due) +
        Number(i.penalty_due) -
        Number(i.principal_paid) -
        Number(i.interest_paid) -
        Number(i.fee_paid) -
        Number(i.penalty_paid);
      expect([i.n, i.settled_at !== null]).toEqual([i.n, open === 0]);
    }
    const contract = (await agent.get(`/api/contracts/${contractId}`)).json();
    const scheduled = installments.reduce(
      (s, i) =>
        s + Number(i.principal_due) + Number(i.interest_due) + Number(i.fee_due) + Number(i.penalty_due),
      0,
    );
    const allocatedTotal = installments.reduce(
      (s, i) =>
        s + Number(i.principal_paid) + Number(i.interest_paid) + Number(i.fee_paid) + Number(i.penalty_paid),
      0,
    );
    expect(contract.outstanding.total).toBe(scheduled - allocatedTotal);
    const [stored] = await rows<{
      outstanding_total: string;
      outstanding_principal: string;
      overdue_total: string;
      arrears_since: string | null;
      credit_balance: string;
      paid_through_date: string;
      start_date: string;
      first_due_date: string;
      status: string;
      active_until: string | null;
      credit_lines: string;
      total_paid: string;
      principal_paid: string;
    }>(
      sql`SELECT f.outstanding_total, c.outstanding_principal, f.overdue_total, f.arrears_since::text AS arrears_since, c.credit_balance, c.paid_through_date::text AS paid_through_date,
        c.total_paid, c.principal_paid,
        c.start_date::text AS start_date, c.first_due_date::text AS first_due_date, c.status, d.active_until::text AS active_until,
        (SELECT COALESCE(sum(a.amount), 0) FROM payment_allocations a WHERE a.contract_id = c.id AND a.component = 'credit' AND a.superseded_at IS NULL) AS credit_lines
        FROM contracts c JOIN contract_figures f ON f.contract_id = c.id JOIN devices d ON d.id = c.device_id WHERE c.id = ${contractId}`,
    );
    if (!stored) throw new Error('contract row missing');
    expect(Number(stored.outstanding_total)).toBe(scheduled - allocatedTotal);
    expect(Number(stored.credit_balance)).toBe(Number(stored.credit_lines));
    // The contract row's paid totals, which the investor figures of the business date read
    // (decision 052): what went to instalments, and of it the principal.
    expect(Number(stored.total_paid) - Number(stored.credit_balance)).toBe(allocatedTotal);
    expect(Number(stored.principal_paid)).toBe(
      installments.reduce((s, i) => s + Number(i.principal_paid), 0),
    );
    expect(stored.status).toBe(scheduled - allocatedTotal === 0 ? 'paid_off' : 'active');
    // Paid-through is the engine's, from the stored positions.
    const positions = installments.map((i) => ({
      n: i.n,
      dueDate: i.due_date,
      due: {
        principal: Number(i.principal_due),
        interest: Number(i.interest_due),
        fee: Number(i.fee_due),
        penalty: Number(i.penalty_due),
      },
      paid: {
        principal: Number(i.principal_paid),
        interest: Number(i.interest_paid),
        fee: Number(i.fee_paid),
        penalty: Number(i.penalty_paid),
      },
    }));
    const buckets = bucketsFromBounds([1, 8, 31, 61, 91]);
    const snapshot = delinquencySnapshot(positions, {
      date: contract.paidThroughDate,
      startDate: stored.start_date,
      buckets,
    });
    expect(stored.paid_through_date).toBe(snapshot.paidThrough);
    expect(contract.paidThroughDate).toBe(snapshot.paidThrough);
    // The stored arrears are the engine's for the business date (the contract page's date).
    const today = delinquencySnapshot(positions, {
      date: contract.asOf,
      startDate: stored.start_date,
      buckets,
    });
    expect([stored.arrears_since, Number(stored.overdue_total)]).toEqual([
      today.oldestUnpaidDueDate,
      sumComponents(today.overdue),
    ]);
    // The device runs at least one period past what was paid for (tokens are never taken back).
    if (stored.status !== 'paid_off' && stored.active_until) {
      const period = daysBetween(stored.start_date, stored.first_due_date);
      expect(stored.active_until >= addDays(stored.paid_through_date, period)).toBe(true);
    }
    // The ledger: the whole book balances; this contract's receivable is its unpaid principal, its credit account its credit.
    const [book] = await rows<{ debit: string; credit: string }>(
      sql`SELECT sum(debit) AS debit, sum(credit) AS credit FROM journal_lines`,
    );
    expect(Number(book?.debit)).toBe(Number(book?.credit));
    const accounts = await rows<{ code: string; balance: string }>(
      sql`SELECT l.account_code AS code, sum(l.debit - l.credit) AS balance FROM journal_lines l
        WHERE l.contract_id = ${contractId} AND l.account_code IN ('1100', '2000') GROUP BY l.account_code`,
    );
    const balance = (code: string) => Number(accounts.find((a) => a.code === code)?.balance ?? 0) || 0;
    expect(balance('1100')).toBe(Number(stored.outstanding_principal));
    expect(-balance('2000') || 0).toBe(Number(stored.credit_balance));
  }

  it('keeps every invariant through random payments, back-dated payments and reversals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 7 }), async (ops) => {
        const contract = await activeContract(t, { agent, manager, reviewer: checker }, 'openpaygo');
        const activatedAt = Date.parse(contract.activatedAt ?? '');
        const posted: string[] = [];
        for (const step of ops) {
          t.clock.advance(10_000);
          if (step.kind === 'reverse') {
            if (!posted.length) continue;
            const [id] = posted.splice(step.pick % posted.length, 1);
            const request = await finance.post(`/api/payments/${id}/reverse`, {
              reason: 'Property test reversal',
            });
            expect(request.statusCode).toBe(201);
            const approved = await finance2.post(`/api/payment-corrections/${request.json().id}/approve`, {});
            expect(approved.statusCode).toBe(200);
            continue;
          }
          const receivedAt =
            step.kind === 'backdated'
              ? new Date(
                  activatedAt + Math.floor((t.clock.now().getTime() - activatedAt) * step.back),
                ).toISOString()
              : undefined;
          const res = await agent.post('/api/payments', {
            contractId: contract.id,
            amount: step.amount,
            method: 'cash',
            ...(receivedAt ? { receivedAt } : {}),
          });
          if (res.statusCode === 422 && res.json().code === 'CONTRACT_NOT_ACTIVE') continue; // paid off
          expect(res.statusCode).toBe(201);
          posted.push(res.json().payment.id);
        }
        await checkInvariants(contract.id);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 12) },
    );
  }, 240_000);
});
