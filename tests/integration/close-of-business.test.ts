import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EOD_STEPS, type EodRun } from '../../src/contracts/close-of-business';
import { queryRows } from '../../src/db/client';
import { contractInstallments } from '../../src/db/schema';
import { addDays, assessLateFees, interestEarnedTo, type LateFeeRule } from '../../src/domain';
import { SYSTEM_ACTOR } from '../../src/server/audit';
import type { AppContext } from '../../src/server/context';
import { closeBusinessDate, STAGES } from '../../src/server/modules/close-of-business/run';
import { backfillSnapshots, writeSnapshot } from '../../src/server/modules/close-of-business/snapshot';
import { refreshCases } from '../../src/server/modules/collections/refresh';
import { defaultOverdue, lockCandidates } from '../../src/server/modules/contracts/close-of-business';
import {
  refreshDelinquency,
  refreshDelinquencyIn,
  takeFiguresLock,
} from '../../src/server/modules/contracts/delinquency';
import { dpdOn, FIGURES_TABLE } from '../../src/server/modules/contracts/figures';
import { toPosition } from '../../src/server/modules/contracts/portfolio';
import { queueLocks } from '../../src/server/modules/devices/commands';
import { deliverDueCommands } from '../../src/server/modules/devices/control/delivery';
import type { CommandProvider } from '../../src/server/modules/devices/control/provider';
import { ACCOUNTS } from '../../src/server/modules/ledger/service';
import { figuresDate, organisation } from '../../src/server/organisation';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { createTestDatabase, DATABASE_KINDS, type DatabaseKind } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';
import { signal } from '../support/signal';

/** The late fees charged, one row per instalment charged (decision 060), as a table to read. */
const LATE_FEES = sql`(SELECT contract_id, schedule_version, n, late_fee_on AS business_date, penalty_due AS amount
  FROM contract_installments WHERE late_fee_on IS NOT NULL)`;

/** A leap-year business date: the book's instalments fall due around 29 February. */
const TODAY = '2024-03-01';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);

const lockAndDefault = {
  lateFeeKind: 'flat',
  lateFeeValue: 500,
  graceDays: 3,
  lockAfterDays: 7,
  defaultAfterDays: 60,
};
const percentFee = {
  lateFeeKind: 'percent',
  lateFeeValue: 5,
  graceDays: 0,
  lockAfterDays: 30,
  defaultAfterDays: 90,
};

/**
 * The book: a monthly contract from 30 November (due dates clamped to 29 February) 62 days past
 * due on a lock-API unit (fees, a lock, a default); a weekly one 22 days past due with a
 * percentage fee and no grace (an OpenPAYGO unit); a current one; and one 60 days past due on an
 * OpenPAYGO unit past its lock-after days (no command: its time runs out by itself).
 */
async function seedBook(ctx: AppContext): Promise<Record<'a' | 'b' | 'c' | 'd', string>> {
  const a = await insertActiveContract(ctx, {
    principal: 60_000,
    apr: 24,
    frequency: 'monthly',
    term: 6,
    startDate: '2023-11-30',
    terms: lockAndDefault,
    controlKind: 'lock_api',
  });
  const b = await insertActiveContract(ctx, {
    principal: 30_000,
    apr: 36,
    frequency: 'weekly',
    term: 10,
    startDate: '2024-02-01',
    serviceFee: 100,
    terms: percentFee,
    controlKind: 'openpaygo',
  });
  const c = await insertActiveContract(ctx, {
    principal: 20_000,
    apr: 12,
    frequency: 'monthly',
    term: 3,
    startDate: '2024-02-15',
    terms: { ...lockAndDefault, lateFeeValue: 100 },
    controlKind: 'lock_api',
  });
  const d = await insertActiveContract(ctx, {
    principal: 40_000,
    apr: 18,
    frequency: 'monthly',
    term: 4,
    startDate: '2023-12-01',
    terms: { lateFeeKind: 'none', lateFeeValue: 0, graceDays: 0, lockAfterDays: 7, defaultAfterDays: null },
    controlKind: 'openpaygo',
  });
  // The OpenPAYGO units' time: d's ran out a month ago (the close records it locked), b's runs on.
  for (const [contract, until] of [
    [d.id, '2024-02-01'],
    [b.id, '2024-03-05'],
  ] as const)
    await ctx.db.execute(
      sql`UPDATE devices SET active_until = ${until} WHERE id = (SELECT device_id FROM contracts WHERE id = ${contract})`,
    );
  return { a: a.id, b: b.id, c: c.id, d: d.id };
}

/**
 * What the close changes, by content (contract numbers, not generated ids or timestamps), so two
 * databases built the same way compare equal.
 */
async function bookChecksum(ctx: AppContext): Promise<string> {
  const [row] = await queryRows<{ sum: string }>(
    ctx.db,
    sql`
    SELECT md5(coalesce(string_agg(x, E'\n' ORDER BY x), '')) AS sum FROM (
      SELECT concat_ws(',', 'c', number, status, arrears_since, next_due_date, outstanding_principal, outstanding_total, overdue_total, version) AS x
        FROM contracts c JOIN contract_figures f ON f.contract_id = c.id
      UNION ALL SELECT concat_ws(',', 'i', c.number, i.n, i.due_date, i.penalty_due, i.settled_at)
        FROM contract_installments i JOIN contracts c ON c.id = i.contract_id
      UNION ALL SELECT concat_ws(',', 'fee', c.number, f.n, f.business_date, f.amount)
        FROM ${LATE_FEES} f JOIN contracts c ON c.id = f.contract_id
      UNION ALL SELECT concat_ws(',', 'acc', c.number, a.business_date, a.amount, a.earned)
        FROM interest_accruals a JOIN contracts c ON c.id = a.contract_id
      UNION ALL SELECT concat_ws(',', 'unit', c.number, d.lock_state, d.active_until)
        FROM devices d JOIN contracts c ON c.device_id = d.id
      UNION ALL SELECT concat_ws(',', 'cmd', c.number, d.kind, d.state, d.source_type, d.source_id)
        FROM device_commands d JOIN contracts c ON c.id = d.contract_id
      UNION ALL SELECT concat_ws(',', 'ev', c.number, e.type, e.message, e.data::text)
        FROM contract_events e JOIN contracts c ON c.id = e.contract_id
      UNION ALL SELECT concat_ws(',', 'jl', e.business_date, e.source_type, e.description, l.account_code, l.debit, l.credit, c.number)
        FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id LEFT JOIN contracts c ON c.id = l.contract_id
      UNION ALL SELECT concat_ws(',', 'case', c.number, k.score, k.in_queue, k.scored_on, k.promise_state)
        FROM collection_cases k JOIN contracts c ON c.id = k.contract_id
      UNION ALL SELECT concat_ws(',', 'step', business_date, step, status, counts::text, note) FROM eod_steps
      UNION ALL SELECT concat_ws(',', 'run', business_date, status) FROM eod_runs
      UNION ALL SELECT 'snap,' || (to_jsonb(s) - 'computed_at')::text FROM portfolio_snapshots s
      UNION ALL SELECT concat_ws(',', 'org', last_closed_date) FROM organisation_settings
      UNION ALL SELECT concat_ws(',', 'audit', action, entity_type, entity_id) FROM audit_log
        WHERE action IN ('contract.default', 'device.time_ran_out')
    ) t`,
  );
  return row?.sum ?? '';
}

async function startBook(kind: DatabaseKind, accrualFrom: string | null = null) {
  const t = await startTestApp(kind);
  t.clock.ms = NOON;
  const book = await seedBook(t.app.ctx);
  await organisation(t.app.ctx, t.app.ctx.db); // the settings row exists from the first read
  if (accrualFrom)
    await t.app.ctx.db.execute(sql`UPDATE organisation_settings SET interest_accrual_from = ${accrualFrom}`);
  return { t, book, manager: await t.signedIn('manager') };
}

const run = async (client: TestClient, businessDate: string) => {
  const answer = await client.post('/api/eod/run', { businessDate });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ businessDate: string; lastClosedDate: string | null; runs: EodRun[] }>();
};

const countsOf = (result: { runs: EodRun[] }, date: string) =>
  Object.fromEntries(
    (result.runs.find((r) => r.businessDate === date)?.steps ?? []).map((step) => [step.step, step.counts]),
  );

describe.each(DATABASE_KINDS)('close of business on %s', (kind) => {
  let t: TestApp;
  let manager: TestClient;
  let book: Record<'a' | 'b' | 'c' | 'd', string>;

  beforeAll(async () => {
    ({ t, manager, book } = await startBook(kind, '2023-01-01'));
  });
  afterAll(() => t.close());

  it('refuses a date after the business date (422), and people without eod.run (403)', async () => {
    const future = await manager.post('/api/eod/run', { businessDate: addDays(TODAY, 1) });
    expect(future.statusCode).toBe(422);
    expect(future.json()).toMatchObject({
      code: 'BUSINESS_DATE_REFUSED',
      errors: [{ field: 'businessDate' }],
    });
    const agent = await t.signedIn('finance');
    expect((await agent.post('/api/eod/run', { businessDate: TODAY })).statusCode).toBe(403);
    expect((await agent.get('/api/eod/runs')).statusCode).toBe(403);
    expect((await manager.get('/api/eod/runs')).json()).toMatchObject({
      businessDate: TODAY,
      runs: [],
      nextBefore: null,
    });
  });

  it('closes the date in its eight steps, as the domain rules decide', async () => {
    const before = await positionsOf(t.app.ctx, [book.a, book.b, book.c, book.d]);
    const result = await run(manager, TODAY);
    expect(result.lastClosedDate).toBe(TODAY);
    const [closed] = result.runs;
    expect(closed).toMatchObject({
      businessDate: TODAY,
      status: 'completed',
      trigger: 'demand',
      attempts: 1,
    });
    expect(closed?.steps.map((s) => [s.step, s.status])).toEqual([
      ['delinquency', 'completed'],
      ['late_fees', 'completed'],
      ['device_locks', 'completed'],
      ['defaults', 'completed'],
      ['promises', 'completed'],
      ['reminders', 'completed'],
      ['interest_accrual', 'completed'],
      ['snapshot', 'completed'],
    ]);
    // Step 5: no promise was due; the queue is scored for the date (collections, decision 030).
    expect(closed?.steps.find((s) => s.step === 'promises')?.counts).toMatchObject({ checked: 0, broken: 0 });
    // Step 6: the reminders step ran (the outbox, decision 027); its counts are named per kind.
    expect(closed?.steps.find((s) => s.step === 'reminders')?.counts).toHaveProperty('beforeDue');

    // Step 2: exactly the domain's late fees, once per overdue instalment past its grace days.
    const rules: Record<string, [LateFeeRule, number] | null> = {
      [book.a]: [{ kind: 'flat', amount: 500 }, 3],
      [book.b]: [{ kind: 'percent', percent: 5 }, 0],
      [book.c]: [{ kind: 'flat', amount: 100 }, 3],
      [book.d]: null,
    };
    const expected = Object.entries(rules).flatMap(([id, rule]) =>
      rule
        ? assessLateFees(before.get(id) ?? [], TODAY, rule[0], rule[1]).map(
            (c) => `${id}:${c.installmentNumber}:${c.amount}`,
          )
        : [],
    );
    const charged = await queryRows<{ k: string }>(
      t.app.ctx.db,
      sql`SELECT contract_id || ':' || n || ':' || amount AS k FROM ${LATE_FEES} x ORDER BY 1`,
    );
    expect(charged.map((r) => r.k)).toEqual(expected.sort());
    expect(expected.filter((k) => k.startsWith(book.a))).toHaveLength(2); // 30 Dec and 30 Jan, not 29 Feb
    expect(expected.filter((k) => k.startsWith(book.b))).toHaveLength(4); // weekly, no grace: 29 Feb too
    const counts = countsOf(result, TODAY);
    expect(counts.late_fees).toMatchObject({ contracts: 2, amount: 1_000 + sumOf(expected, book.b) });
    // The date's fees are one journal entry: each contract's receivable, and the income in one line.
    const ledger = await queryRows<{
      source_id: string;
      account_code: string;
      contract_id: string | null;
      debit: string;
      credit: string;
    }>(
      t.app.ctx.db,
      sql`SELECT e.source_id, l.account_code, l.contract_id, l.debit::text, l.credit::text
          FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
          WHERE e.source_type = 'late_fee' ORDER BY l.account_code, l.contract_id`,
    );
    expect(ledger).toEqual([
      ...[book.a, book.b].sort().map((id) => ({
        source_id: TODAY,
        account_code: ACCOUNTS.penaltiesReceivable,
        contract_id: id,
        debit: String(id === book.a ? 1_000 : sumOf(expected, book.b)),
        credit: '0',
      })),
      {
        source_id: TODAY,
        account_code: ACCOUNTS.penaltyIncome,
        contract_id: null,
        debit: '0',
        credit: String(1_000 + sumOf(expected, book.b)),
      },
    ]);

    // Step 3: one lock command, for the lock-API unit; the OpenPAYGO unit needs none. The
    // OpenPAYGO unit whose time ran out (d's) is recorded locked, the one still running (b's) not.
    expect(counts.device_locks).toEqual({ overdueBeyondLockAfter: 2, locksQueued: 1, timeRanOut: 1 });
    const commands = await queryRows<{ contract_id: string; state: string }>(
      t.app.ctx.db,
      sql`SELECT contract_id, state FROM device_commands WHERE kind = 'lock'`,
    );
    expect(commands).toEqual([{ contract_id: book.a, state: 'queued' }]);
    const units = await queryRows<{ contract_id: string; lock_state: string }>(
      t.app.ctx.db,
      sql`SELECT c.id AS contract_id, d.lock_state FROM devices d JOIN contracts c ON c.device_id = d.id
          WHERE d.control_kind = 'openpaygo' ORDER BY c.id`,
    );
    expect(units).toEqual(
      [
        { contract_id: book.b, lock_state: 'unlocked' },
        { contract_id: book.d, lock_state: 'locked' },
      ].sort((x, y) => (x.contract_id < y.contract_id ? -1 : 1)),
    );
    const unitOfD = (await manager.get(`/api/contracts/${book.d}`)).json().device;
    expect((await manager.get(`/api/devices/${unitOfD.id}`)).json().lockState).toBe('locked');
    const [audit] = await queryRows<{ entity_id: string; after: { devices: string[] } }>(
      t.app.ctx.db,
      sql`SELECT entity_id, after FROM audit_log WHERE action = 'device.time_ran_out'`,
    );
    expect(audit).toMatchObject({ entity_id: TODAY, after: { devices: [unitOfD.id] } });

    // Step 4: 62 days past due >= 60: defaulted through the lifecycle, with a timeline line.
    expect(counts.defaults).toEqual({ defaulted: 1 });
    const statuses = await queryRows<{ id: string; status: string; dpd: number; version: number }>(
      t.app.ctx.db,
      sql`SELECT id, status, ${dpdOn(TODAY)} AS dpd, version
          FROM contracts c JOIN contract_figures f ON f.contract_id = c.id ORDER BY dpd DESC`,
    );
    expect(statuses[0]).toMatchObject({ id: book.a, status: 'defaulted', dpd: 62, version: 2 });
    expect(statuses.filter((s) => s.status === 'defaulted')).toHaveLength(1);

    // Step 7: the domain's interest earned to date, for every active contract under accrual.
    const accrued = await queryRows<{ contract_id: string; earned: string }>(
      t.app.ctx.db,
      sql`SELECT contract_id, earned::text FROM interest_accruals WHERE business_date = ${TODAY}`,
    );
    const starts: Record<string, string> = {
      [book.b]: '2024-02-01',
      [book.c]: '2024-02-15',
      [book.d]: '2023-12-01',
    };
    expect(Object.fromEntries(accrued.map((r) => [r.contract_id, Number(r.earned)]))).toEqual(
      Object.fromEntries(
        Object.entries(starts).map(([id, start]) => [
          id,
          interestEarnedTo(
            (before.get(id) ?? []).map((p) => ({ dueDate: p.dueDate, interestDue: p.due.interest })),
            start,
            TODAY,
          ),
        ]),
      ),
    );

    // Step 8: the snapshot, PAR from the same figures.
    const [snapshot] = await queryRows<Record<string, unknown>>(
      t.app.ctx.db,
      sql`SELECT * FROM portfolio_snapshots WHERE business_date = ${TODAY}`,
    );
    expect(snapshot).toMatchObject({
      active_count: 3,
      defaulted_count: 1,
      overdue_count: 3,
      // d's OpenPAYGO unit, its time run out (a's lock is only queued).
      locked_count: 1,
    });
    expect(Number(snapshot?.par30_amount)).toBeGreaterThan(0);

    // The trial balance still nets to zero.
    const [balance] = await queryRows<{ net: string }>(
      t.app.ctx.db,
      sql`SELECT (sum(debit) - sum(credit))::text AS net FROM journal_lines`,
    );
    expect(Number(balance?.net)).toBe(0);
  });

  it('changes nothing when the same date is run again', async () => {
    const before = await bookChecksum(t.app.ctx);
    const again = await run(manager, TODAY);
    expect(again.runs).toHaveLength(1);
    expect(again.runs[0]?.attempts).toBe(1);
    expect(await bookChecksum(t.app.ctx)).toBe(before);
    const listed = (await manager.get('/api/eod/runs')).json();
    expect(listed).toMatchObject({
      businessDate: TODAY,
      lastClosedDate: TODAY,
      runs: [{ businessDate: TODAY }],
    });
  });

  it('queues no second lock for a unit whose lock is still queued (the pending units read first)', async () => {
    const again = await withTransaction(t.app.ctx, (tx) =>
      queueLocks(tx, SYSTEM_ACTOR, lockCandidates(TODAY), 'overdue', { type: 'test', id: 'again' }),
    );
    expect(again.candidates).toBeGreaterThan(0);
    expect(again.queued).toBe(0);
    const locks = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM device_commands WHERE kind = 'lock'`,
    );
    expect(locks[0]?.n).toBe(1);
  });

  it('has the database keep every case on an existing contract, and every command on an existing unit', async () => {
    const refusal = async (statement: ReturnType<typeof sql>) =>
      t.app.ctx.db.execute(statement).then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
      );
    const [lock] = await queryRows<{ id: string; device_id: string; contract_id: string }>(
      t.app.ctx.db,
      sql`SELECT id, device_id, contract_id FROM device_commands WHERE kind = 'lock' LIMIT 1`,
    );
    if (!lock) throw new Error('the close queued no lock');
    // The close's statements write them in bulk; each names what it belongs to (migration 0044).
    expect(
      await refusal(sql`INSERT INTO device_commands (id, device_id, kind, state, reason)
                        SELECT 'c-' || n, CASE WHEN n = 2 THEN 'no-such-unit' ELSE ${lock.device_id} END, 'lock', 'queued', 'test'
                        FROM generate_series(1, 3) n`),
    ).toMatch(/device_commands must belong to an existing row of devices: device_id no-such-unit/);
    expect(
      await refusal(sql`UPDATE device_commands SET device_id = 'no-such-unit' WHERE id = ${lock.id}`),
    ).toMatch(/must belong to an existing row of devices/);
    // A unit no contract names, with a command: the command keeps it.
    await t.app.ctx.db.execute(sql`INSERT INTO devices (id, serial_number, model_id, status, control_kind)
      SELECT 'spare-unit', 'SPARE-UNIT-1', model_id, 'in_stock', control_kind FROM devices WHERE id = ${lock.device_id}`);
    await t.app.ctx.db.execute(sql`INSERT INTO device_commands (id, device_id, kind, state, reason)
      VALUES ('spare-command', 'spare-unit', 'lock', 'queued', 'test')`);
    expect(await refusal(sql`DELETE FROM devices WHERE id = 'spare-unit'`)).toMatch(
      /The row spare-unit of devices is still named by device_commands.device_id/,
    );
    expect(await refusal(sql`UPDATE devices SET id = 'another' WHERE id = ${lock.device_id}`)).toMatch(
      /never changes/,
    );
    expect(
      await refusal(sql`INSERT INTO collection_cases (contract_id, customer_id, plan_id, bucket, dpd, amount_overdue,
                          regular_payment, currency, score, dpd_points, amount_points, risk_points, promise_points,
                          contact_points, in_queue, scored_on, updated_at)
                        VALUES ('no-such-contract', 'x', 'x', 'current', 0, 0, 0, 'USD', 0, 0, 0, 0, 0, 0, false, ${TODAY}, now())`),
    ).toMatch(/collection_cases must belong to an existing row of contracts: contract_id no-such-contract/);
    expect(
      await refusal(
        sql`UPDATE collection_cases SET contract_id = 'no-such-contract' WHERE contract_id = ${lock.contract_id}`,
      ),
    ).toMatch(/must belong to an existing row of contracts/);
    // The outbox's messages name their customer and contract, checked per statement (migration 0050).
    const message = (id: string, customer: SQL, contract: SQL) =>
      sql`INSERT INTO messages (id, customer_id, contract_id, channel, recipient, template_key, template_version, body, dedupe_key)
          SELECT ${id}, ${customer}, ${contract}, 'sms', '+254700000000', 'reminder_before_due', 1, 'Test', ${id}
          FROM contracts c WHERE c.id = ${lock.contract_id}`;
    expect(await refusal(message('m-1', sql`c.customer_id`, sql`'no-such-contract'`))).toMatch(
      /messages must belong to an existing row of contracts: contract_id no-such-contract/,
    );
    expect(await refusal(message('m-2', sql`'no-such-customer'`, sql`c.id`))).toMatch(
      /messages must belong to an existing row of customers: customer_id no-such-customer/,
    );
    expect(await refusal(message('m-3', sql`c.customer_id`, sql`c.id`))).toBe('accepted');
    expect(await refusal(sql`UPDATE messages SET contract_id = 'no-such-contract' WHERE id = 'm-3'`)).toMatch(
      /must belong to an existing row of contracts/,
    );
    // A customer with nothing but a message: the message keeps it.
    await t.app.ctx.db.execute(sql`INSERT INTO customers (id, account_number, first_name, last_name, phone)
      VALUES ('spare-customer', 'SPARE-1', 'Spare', 'Customer', '+254711111111')`);
    expect(await refusal(message('m-4', sql`'spare-customer'`, sql`NULL`))).toBe('accepted');
    expect(await refusal(sql`DELETE FROM customers WHERE id = 'spare-customer'`)).toMatch(
      /The row spare-customer of customers is still named by messages.customer_id/,
    );
  });

  it('books a paid penalty against the receivable the close charged, and accrued interest against its receivable', async () => {
    const finance = await t.signedIn('finance');
    // The fixture activates on the real clock; this book lives on the test clock's dates.
    await t.app.ctx.db.execute(sql`UPDATE contracts SET activated_at = start_date WHERE id = ${book.b}`);
    const contract = (await finance.get(`/api/contracts/${book.b}`)).json<{
      outstanding: { total: number };
    }>();
    const paid = await finance.post('/api/payments', {
      contractId: book.b,
      amount: contract.outstanding.total,
      method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const paymentId = paid.json<{ payment: { id: string } }>().payment.id;
    const [by] = await queryRows<{ penalty: string; interest: string }>(
      t.app.ctx.db,
      sql`SELECT COALESCE(sum(amount) FILTER (WHERE component = 'penalty'), 0)::text AS penalty,
                 COALESCE(sum(amount) FILTER (WHERE component = 'interest'), 0)::text AS interest
          FROM payment_allocations WHERE payment_id = ${paymentId} AND superseded_at IS NULL`,
    );
    expect(Number(by?.penalty)).toBeGreaterThan(0);
    const legs = await queryRows<{ account_code: string; credit: string }>(
      t.app.ctx.db,
      sql`SELECT l.account_code, sum(l.credit)::text AS credit FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
          WHERE e.source_type = 'payment' AND e.source_id = ${paymentId} GROUP BY l.account_code`,
    );
    const credit = Object.fromEntries(legs.map((l) => [l.account_code, Number(l.credit)]));
    // Decision 026: penalties were income when charged (4300), interest when accrued (4100; this
    // book is under accrual): the payment settles the receivables 1130 and 1110, earning nothing again.
    expect(credit['1130']).toBe(Number(by?.penalty));
    expect(credit['1110']).toBe(Number(by?.interest));
    expect(credit['4300']).toBeUndefined();
    expect(credit['4100']).toBeUndefined();
  });

  it('writes the business date’s snapshot from the stored figures exactly as computed as of the date', async () => {
    // After fees, a default, locks and a payment of a penalty (the tests above): decision 034. The
    // investor figures too: collected read from the instalments, not the payment lines (decision 052).
    const org = await organisation(t.app.ctx, t.app.ctx.db);
    const read = async () => {
      const [row] = await queryRows<{ row: Record<string, unknown>; investor: unknown[] }>(
        t.app.ctx.db,
        sql`SELECT to_jsonb(s) - 'computed_at' AS row,
                   (SELECT jsonb_agg(to_jsonb(f) ORDER BY f.fund, f.vintage) FROM investor_figures f
                    WHERE f.business_date = ${TODAY}) AS investor
            FROM portfolio_snapshots s WHERE business_date = ${TODAY}`,
      );
      return row && ({ ...row.row, investor: row.investor } as Record<string, unknown>);
    };
    const write = (stored: boolean) =>
      withTransaction(t.app.ctx, (tx) =>
        writeSnapshot(tx, org, TODAY, { current: true, stored, replace: true }),
      );
    await write(true);
    const stored = await read();
    await write(false);
    expect(stored).toEqual(await read());
    expect(stored).toMatchObject({ defaulted_count: 1 });
    expect(Number(stored?.overdue_amount)).toBeGreaterThan(0);
    const investor = (stored?.investor ?? []) as { fund: string; collected: number; due: number }[];
    const whole = investor.filter((f) => !f.fund);
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.reduce((sum, f) => sum + Number(f.collected), 0)).toBeGreaterThan(0);
    expect(whole.reduce((sum, f) => sum + Number(f.due), 0)).toBeGreaterThan(0);
  });

  it('back-fills snapshots for past dates from the schedule and payments', async () => {
    const org = await organisation(t.app.ctx, t.app.ctx.db);
    const days = await withTransaction(t.app.ctx, (tx) =>
      backfillSnapshots(tx, org, '2023-11-25', addDays(TODAY, -1)),
    );
    expect(days).toBe(97);
    const rows = await queryRows<{
      business_date: string;
      active_count: number;
      locked_count: number | null;
    }>(
      t.app.ctx.db,
      sql`SELECT to_char(business_date, 'YYYY-MM-DD') AS business_date, active_count, defaulted_count, locked_count
          FROM portfolio_snapshots ORDER BY business_date`,
    );
    expect(rows).toHaveLength(98);
    // Before the first contract started the book is empty; the closed date keeps its own figures.
    expect(rows[0]).toMatchObject({ business_date: '2023-11-25', active_count: 0, locked_count: null });
    // Both contracts started by then are counted (the defaulted one by its status now).
    expect(rows.find((r) => r.business_date === '2023-12-15')).toMatchObject({
      active_count: 1,
      defaulted_count: 1,
    });
    expect(rows.at(-1)).toMatchObject({ business_date: TODAY, locked_count: 1 });
  });
});

function sumOf(keys: readonly string[], id: string): number {
  return keys.filter((k) => k.startsWith(id)).reduce((total, k) => total + Number(k.split(':')[2]), 0);
}

async function positionsOf(ctx: AppContext, ids: readonly string[]) {
  const rows = await ctx.db
    .select()
    .from(contractInstallments)
    .where(sql`${contractInstallments.contractId} = ANY(${sql.param([...ids])}::text[])`);
  const byContract = new Map<string, ReturnType<typeof toPosition>[]>();
  for (const row of rows)
    byContract.set(row.contractId, [...(byContract.get(row.contractId) ?? []), toPosition(row)]);
  return byContract;
}

describe.each(DATABASE_KINDS)('close of business resumed and caught up on %s', (kind) => {
  it('killed after step 3 and run again ends as an uninterrupted run', async () => {
    const whole = await startBook(kind, '2023-01-01');
    const broken = await startBook(kind, '2023-01-01');
    try {
      await run(whole.manager, TODAY);
      // The fourth step's record is refused: its work rolls back with it, as if the process died.
      await broken.t.app.ctx.db.execute(sql`
        CREATE FUNCTION eod_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.step = 'defaults' AND NEW.status = 'completed' THEN RAISE EXCEPTION 'killed'; END IF;
          RETURN NEW;
        END $$`);
      await broken.t.app.ctx.db.execute(
        sql`CREATE TRIGGER eod_test_refuse BEFORE INSERT OR UPDATE ON eod_steps FOR EACH ROW EXECUTE FUNCTION eod_test_refuse()`,
      );
      const failed = await run(broken.manager, TODAY);
      expect(failed.runs[0]).toMatchObject({ status: 'failed', error: 'defaults: killed' });
      expect(failed.runs[0]?.steps.map((s) => `${s.step}:${s.status}`)).toEqual([
        'delinquency:completed',
        'late_fees:completed',
        'device_locks:completed',
        'defaults:failed',
      ]);
      expect(failed.lastClosedDate).toBeNull();
      expect((await broken.manager.get('/api/eod/runs')).json().runs[0]).toMatchObject({ status: 'failed' });

      await broken.t.app.ctx.db.execute(sql`DROP TRIGGER eod_test_refuse ON eod_steps`);
      const resumed = await run(broken.manager, TODAY);
      expect(resumed.runs[0]).toMatchObject({ status: 'completed', attempts: 2, error: null });
      expect(await bookChecksum(broken.t.app.ctx)).toBe(await bookChecksum(whole.t.app.ctx));
    } finally {
      await whole.t.close();
      await broken.t.close();
    }
  });

  it('withdraws a lock it queued once a payment has cleared the arrears, and never sends it', async () => {
    const { t, book, manager } = await startBook(kind);
    try {
      await run(manager, TODAY);
      const queued = await queryRows<{ id: string; contract_id: string }>(
        t.app.ctx.db,
        sql`SELECT id, contract_id FROM device_commands WHERE kind = 'lock' AND state = 'queued'`,
      );
      expect(queued.map((c) => c.contract_id)).toEqual([book.a]);
      // A payment that committed while the close's step ran cleared the arrears without seeing
      // the lock it would have undone.
      await t.app.ctx.db.execute(
        sql`UPDATE contract_figures SET arrears_since = NULL, overdue_total = 0 WHERE contract_id = ${book.a}`,
      );
      const sent: string[] = [];
      const provider: CommandProvider = {
        name: 'simulator',
        deliver: async (request) => {
          sent.push(request.commandId);
          return { outcome: 'acknowledged', response: null };
        },
      };
      const delivered = await deliverDueCommands(t.app.ctx, {
        providers: { lock: provider, openpaygo: provider },
      });
      expect(delivered).toMatchObject({ withdrawn: 1, acknowledged: 0 });
      expect(sent).toEqual([]);
      const [command] = await queryRows<{ state: string; last_error: string; lock_state: string }>(
        t.app.ctx.db,
        sql`SELECT c.state, c.last_error, d.lock_state FROM device_commands c JOIN devices d ON d.id = c.device_id
            WHERE c.id = ${queued[0]?.id}`,
      );
      expect(command).toEqual({
        state: 'failed',
        last_error:
          'Withdrawn before delivery: the contract is no longer past its lock-after days (a payment cleared the arrears)',
        lock_state: 'unlocked',
      });
    } finally {
      await t.close();
    }
  });

  it('ages the book a day rewriting only the contracts with an instalment newly due', async () => {
    const { t } = await startBook(kind);
    try {
      await refreshDelinquency(t.app.ctx, TODAY);
      const figures = () =>
        queryRows<{ id: string; version: string; dpd: number; due_today: boolean }>(
          t.app.ctx.db,
          sql`SELECT contract_id AS id, xmin::text AS version, next_due_date = ${TODAY}::date AS due_today,
                     ${dpdOn(addDays(TODAY, 1), FIGURES_TABLE)} AS dpd
              FROM contract_figures ORDER BY contract_id`,
        );
      const before = await figures();
      // Days past due grow with the date read, so a contract in arrears with nothing newly due is
      // left as it is (decision 054): only those whose next instalment fell due today move.
      const changed = await withTransaction(t.app.ctx, async (tx) => {
        await takeFiguresLock(tx);
        return refreshDelinquencyIn(tx, addDays(TODAY, 1), { moving: true });
      });
      const after = await figures();
      const dueToday = before.filter((row) => row.due_today).map((row) => row.id);
      expect(dueToday.length).toBeGreaterThan(0);
      expect(changed).toBe(dueToday.length);
      for (const row of after) {
        const was = before.find((b) => b.id === row.id);
        if (dueToday.includes(row.id)) expect(row.version).not.toBe(was?.version);
        else expect(row).toEqual(was);
      }
      // a, 62 days past due today, is 63 tomorrow without a write.
      expect(after.map((row) => row.dpd).sort((x, y) => y - x)[0]).toBe(63);
      // What a refresh reading every contract's schedule would store for tomorrow: the same.
      expect(await refreshDelinquency(t.app.ctx, addDays(TODAY, 1))).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('has nothing to do in the arrears step once the day’s start brought the figures to the date', async () => {
    const { t, manager, book } = await startBook(kind);
    try {
      // The day's start: the whole book's figures brought to the date.
      expect(await refreshDelinquency(t.app.ctx, TODAY)).toBeGreaterThan(0);
      const result = await run(manager, TODAY);
      expect(result.runs[0]?.steps.find((step) => step.step === 'delinquency')).toMatchObject({
        status: 'completed',
        counts: { changed: 0 },
        note: 'the figures were brought to this date at its start',
      });
      // What the step would have written: nothing.
      expect(await refreshDelinquency(t.app.ctx, TODAY)).toBe(0);
      // New buckets change no stored figure (a bucket is derived for the date read, decision
      // 054): the mark stays, and the lists sort the book into the new buckets at once.
      const admin = await t.signedIn('admin');
      const { updatedAt: _updatedAt, ...settings } = (await admin.get('/api/settings/organisation')).json();
      const saved = await admin.request('PUT', '/api/settings/organisation', {
        ...settings,
        delinquencyBuckets: [1, 30, 90],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const rebucketed = (await manager.get('/api/contracts?bucket=30-89')).json();
      // a is 62 days past due, d 60.
      expect(rebucketed.items.map((c: { id: string; bucket: string }) => [c.id, c.bucket]).sort()).toEqual(
        [
          [book.a, '30-89'],
          [book.d, '30-89'],
        ].sort(),
      );
      expect(await withTransaction(t.app.ctx, (tx) => figuresDate(tx))).toBe(TODAY);
    } finally {
      await t.close();
    }
  });

  it('rescores at the close only the cases the day’s start left stale', async () => {
    const { t, book } = await startBook(kind);
    try {
      // The fixtures wrote the customers and contracts on the real clock; this book lives on the
      // test clock's.
      await t.app.ctx.db.execute(sql`UPDATE customers SET updated_at = ${new Date(NOON)}`);
      await t.app.ctx.db.execute(sql`UPDATE contracts SET updated_at = ${new Date(NOON)}`);
      await t.app.ctx.db.execute(sql`UPDATE contract_figures SET updated_at = ${new Date(NOON)}`);
      // The day's start: figures and cases brought to the date.
      await withTransaction(t.app.ctx, async (tx) => {
        await refreshDelinquencyIn(tx, TODAY);
        t.clock.ms += 1_000; // the cases are scored after the figures were written, as on a real clock
        await refreshCases(tx, TODAY);
      });
      const caseOf = async (id: string) => {
        const [row] = await queryRows<{
          in_queue: boolean;
          risk_grade: string | null;
          region: string | null;
        }>(
          t.app.ctx.db,
          sql`SELECT in_queue, risk_grade, region FROM collection_cases WHERE contract_id = ${id}`,
        );
        return row;
      };
      expect((await caseOf(book.b))?.in_queue).toBe(true);
      t.clock.ms += 60_000;
      // Since the start: b is paid up, a's customer moves region (both bump their updated_at);
      // d's customer gets a risk grade behind the app's back (no updated_at: nothing says it moved).
      await t.app.ctx.db.execute(sql`UPDATE contracts SET activated_at = start_date WHERE id = ${book.b}`);
      const finance = await t.signedIn('finance');
      const owed = (await finance.get(`/api/contracts/${book.b}`)).json<{ outstanding: { total: number } }>();
      const paid = await finance.post('/api/payments', {
        contractId: book.b,
        amount: owed.outstanding.total,
        method: 'cash',
      });
      expect(paid.statusCode, paid.body).toBe(201);
      await t.app.ctx.db.execute(sql`
        UPDATE customers SET region = 'Rift Valley', updated_at = ${new Date(t.clock.ms)}
        WHERE id = (SELECT customer_id FROM contracts WHERE id = ${book.a})`);
      await t.app.ctx.db.execute(sql`
        UPDATE customers SET risk_grade = 'E' WHERE id = (SELECT customer_id FROM contracts WHERE id = ${book.d})`);
      // The close's rescoring (its promises step), alone: the steps before it would touch a's contract.
      await withTransaction(t.app.ctx, (tx) => refreshCases(tx, TODAY, 'changed'));
      expect((await caseOf(book.b))?.in_queue).toBe(false);
      expect((await caseOf(book.a))?.region).toBe('Rift Valley');
      // Not looked at: the start's score stands until a change the app made, or the next date.
      expect((await caseOf(book.d))?.risk_grade).not.toBe('E');
      await withTransaction(t.app.ctx, (tx) => refreshCases(tx, addDays(TODAY, 1)));
      expect((await caseOf(book.d))?.risk_grade).toBe('E');
    } finally {
      await t.close();
    }
  });

  it('closes missing earlier dates first, oldest first', async () => {
    const { t, manager } = await startBook(kind);
    try {
      await organisation(t.app.ctx, t.app.ctx.db);
      await t.app.ctx.db.execute(
        sql`UPDATE organisation_settings SET last_closed_date = ${addDays(TODAY, -3)}`,
      );
      const result = await run(manager, TODAY);
      expect(result.runs.map((r) => [r.businessDate, r.status])).toEqual([
        [addDays(TODAY, -2), 'completed'],
        [addDays(TODAY, -1), 'completed'],
        [TODAY, 'completed'],
      ]);
      const started = result.runs.map((r) => r.startedAt);
      expect([...started].sort()).toEqual(started);
      expect(result.lastClosedDate).toBe(TODAY);
      // Late fees are charged on the date each instalment passed its grace days.
      const fees = await queryRows<{ business_date: string; n: number }>(
        t.app.ctx.db,
        sql`SELECT to_char(business_date, 'YYYY-MM-DD') AS business_date, count(*)::int AS n FROM ${LATE_FEES} x GROUP BY 1 ORDER BY 1`,
      );
      expect(fees[0]?.business_date).toBe(addDays(TODAY, -2));
      // An earlier date than the last closed one is answered, never run.
      const old = await run(manager, addDays(TODAY, -10));
      expect(old.runs).toEqual([]);
      // The list pages back in time: newest first, then the dates before the page's oldest.
      const dates = (page: { runs: { businessDate: string }[] }) => page.runs.map((r) => r.businessDate);
      const newest = (await manager.get('/api/eod/runs?limit=2')).json();
      expect(dates(newest)).toEqual([TODAY, addDays(TODAY, -1)]);
      expect(newest.nextBefore).toBe(addDays(TODAY, -1));
      const older = (await manager.get(`/api/eod/runs?limit=2&before=${newest.nextBefore}`)).json();
      expect(dates(older)).toEqual([addDays(TODAY, -2)]);
      expect(older.nextBefore).toBeNull();
      const bad = await manager.get('/api/eod/runs?before=yesterday');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('before must be a date (YYYY-MM-DD)');
    } finally {
      await t.close();
    }
  });

  it('charges each later night only the instalments newly past their grace days, once', async () => {
    const { t, book, manager } = await startBook(kind);
    try {
      const before = await positionsOf(t.app.ctx, [book.a, book.b, book.c]);
      const rules: [string, LateFeeRule, number][] = [
        [book.a, { kind: 'flat', amount: 500 }, 3],
        [book.b, { kind: 'percent', percent: 5 }, 0],
        [book.c, { kind: 'flat', amount: 100 }, 3],
      ];
      const last = addDays(TODAY, 20);
      await run(manager, TODAY);
      t.clock.ms = NOON + 20 * 86_400_000;
      // Twenty days on, the first session has expired: the manager signs in again.
      const result = await run(await t.signedIn('manager'), last);
      // The domain's charges, night by night: each instalment on the first date it is past its
      // grace days, and never again (contracts a and b were charged on the first night already).
      const expected: string[] = [];
      const perDate = new Map<string, number>();
      for (let date = TODAY; date <= last; date = addDays(date, 1)) {
        for (const [id, rule, grace] of rules) {
          const earlier = expected.filter((k) => k.startsWith(`${id}:`)).map((k) => Number(k.split(':')[1]));
          for (const c of assessLateFees(before.get(id) ?? [], date, rule, grace, earlier)) {
            expected.push(`${id}:${c.installmentNumber}:${date}:${c.amount}`);
            perDate.set(date, (perDate.get(date) ?? 0) + c.amount);
          }
        }
      }
      const charged = await queryRows<{ k: string }>(
        t.app.ctx.db,
        sql`SELECT contract_id || ':' || n || ':' || to_char(business_date, 'YYYY-MM-DD') || ':' || amount AS k
            FROM ${LATE_FEES} x`,
      );
      expect(charged.map((r) => r.k).sort()).toEqual(expected.sort());
      // Later nights did charge (a, b and c each had an instalment fall past its grace days), and
      // each night's step counts exactly its own fees; most nights charged nothing.
      expect(expected.filter((k) => k.split(':')[2] !== TODAY).length).toBeGreaterThanOrEqual(3);
      for (let date = addDays(TODAY, 1); date <= last; date = addDays(date, 1))
        expect(countsOf(result, date).late_fees?.amount ?? 0, date).toBe(perDate.get(date) ?? 0);
    } finally {
      await t.close();
    }
  });

  it('charges, at the next close, an instalment a reversal reopened after its grace days ran out', async () => {
    const { t, book, manager } = await startBook(kind);
    try {
      // Contract c's first instalment (due 15 March, 3 grace days, a flat 100) is paid on time.
      const first = (await positionsOf(t.app.ctx, [book.c])).get(book.c)?.find((p) => p.n === 1);
      if (!first) throw new Error('c has no first instalment');
      const amount = first.due.principal + first.due.interest + first.due.fee;
      // The fixture's contracts carry the real clock's activation; payments may not precede it.
      await t.app.ctx.db.execute(
        sql`UPDATE contracts SET activated_at = '2024-02-15T08:00:00Z' WHERE id = ${book.c}`,
      );
      const finance = await t.signedIn('finance');
      const paid = await finance.post('/api/payments', { contractId: book.c, amount, method: 'cash' });
      expect(paid.statusCode, paid.body).toBe(201);
      const night = addDays(TODAY, 20);
      await run(manager, TODAY);
      t.clock.ms = NOON + 20 * 86_400_000;
      await run(await t.signedIn('manager'), night);
      const feesOf = () =>
        queryRows<{ n: number; date: string; amount: number }>(
          t.app.ctx.db,
          sql`SELECT n, to_char(business_date, 'YYYY-MM-DD') AS date, amount::int AS amount
              FROM ${LATE_FEES} x WHERE contract_id = ${book.c} ORDER BY n`,
        );
      expect(await feesOf()).toEqual([]);
      // Reversed on 21 March (maker and checker): the instalment is unpaid, long past its grace.
      const [maker, checker] = [await t.signedIn('finance'), await t.signedIn('finance')];
      const request = await maker.post(`/api/payments/${paid.json().payment.id}/reverse`, {
        reason: 'Bounced',
      });
      expect(request.statusCode, request.body).toBe(201);
      const approved = await checker.post(`/api/payment-corrections/${request.json().id}/approve`, {});
      expect(approved.statusCode, approved.body).toBe(200);
      const [mark] = await queryRows<{ on: string }>(
        t.app.ctx.db,
        sql`SELECT to_char(fees_recheck_on, 'YYYY-MM-DD') AS on FROM contract_figures WHERE contract_id = ${book.c}`,
      );
      expect(mark?.on).toBe(night);
      // The next close finds it from the mark (its due date is outside the night's window), once.
      const next = addDays(night, 1);
      t.clock.ms = NOON + 21 * 86_400_000;
      await run(await t.signedIn('manager'), next);
      const expected = assessLateFees([first], next, { kind: 'flat', amount: 100 }, 3);
      expect(expected).toHaveLength(1);
      const charged = expected.map((c) => ({ n: c.installmentNumber, date: next, amount: c.amount }));
      expect(await feesOf()).toEqual(charged);
      // The mark stays (it is a date), and finds nothing more to charge the night after.
      t.clock.ms = NOON + 22 * 86_400_000;
      await run(await t.signedIn('manager'), addDays(next, 1));
      expect(await feesOf()).toEqual(charged);
    } finally {
      await t.close();
    }
  });
});

/** Lock waits of a kind in this test's own database: pg_locks is the whole cluster's, other files' included. */
async function lockWaits(t: TestApp, locktype: 'advisory' | 'transactionid'): Promise<number | undefined> {
  const [row] = await queryRows<{ n: number }>(
    t.app.ctx.db,
    sql`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = ${locktype} AND NOT l.granted AND a.datname = current_database()`,
  );
  return row?.n;
}

// Several instances on one database is a PostgreSQL deployment (PGlite is one process's own).
describe.runIf(DATABASE_KINDS.includes('postgres'))('close of business on two instances', () => {
  it('runs each step of a date once when both are asked at once', async () => {
    const shared = await createTestDatabase('postgres');
    const first = await startTestApp('postgres', { shared });
    const second = await startTestApp('postgres', { shared });
    try {
      for (const t of [first, second]) t.clock.ms = NOON;
      await seedBook(first.app.ctx);
      const [one, two] = await Promise.all([first.signedIn('manager'), second.signedIn('admin')]);
      const [a, b] = await Promise.all([run(one, TODAY), run(two, TODAY)]);
      expect(a.runs[0]?.status).toBe('completed');
      expect(b.runs[0]?.status).toBe('completed');
      const [counts] = await queryRows<{
        runs: number;
        steps: number;
        fees: number;
        entries: number;
        locks: number;
      }>(
        first.app.ctx.db,
        sql`SELECT (SELECT count(*)::int FROM eod_runs) AS runs, (SELECT count(*)::int FROM eod_steps) AS steps,
                   (SELECT count(*)::int FROM ${LATE_FEES} x) AS fees,
                   (SELECT count(*)::int FROM journal_entries WHERE source_type = 'late_fee') AS entries,
                   (SELECT count(*)::int FROM device_commands) AS locks`,
      );
      expect(counts).toEqual({ runs: 1, steps: 8, fees: 6, entries: 1, locks: 1 });
    } finally {
      await first.close();
      await second.close();
      await shared.drop();
    }
  });

  it('leaves the figures a payment stored while an arrears refresh was reading the book', async () => {
    const t = await startTestApp('postgres');
    try {
      t.clock.ms = NOON;
      await seedBook(t.app.ctx);
      await refreshDelinquency(t.app.ctx, addDays(TODAY, -1));
      // The payment's contract is one the refresh rewrites (an instalment of it falls due on the
      // day between): the others in arrears keep their rows, only their days past due grow.
      const overdue = await queryRows<{ id: string; dpd: number }>(
        t.app.ctx.db,
        sql`SELECT contract_id AS id, ${dpdOn(addDays(TODAY, -1), FIGURES_TABLE)} AS dpd FROM contract_figures
            WHERE arrears_since IS NOT NULL ORDER BY next_due_date = ${addDays(TODAY, -1)}::date DESC, contract_id`,
      );
      const [paid, other] = overdue;
      if (!paid || !other) throw new Error('the book needs two contracts in arrears');
      // A payment clearing the arrears of one contract, its transaction not yet committed.
      const release = signal();
      const written = signal();
      const payment = withTransaction(t.app.ctx, async (tx) => {
        await tx.tx.execute(
          sql`UPDATE contract_figures SET arrears_since = NULL WHERE contract_id = ${paid.id}`,
        );
        written.fire();
        await release.fired;
      });
      await written.fired;
      // The day's refresh reads the book as it was, and waits for that contract's row.
      const refresh = refreshDelinquency(t.app.ctx, TODAY);
      await expect.poll(() => lockWaits(t, 'transactionid')).toBe(1);
      release.fire();
      await payment;
      await refresh;
      const after = await queryRows<{ id: string; dpd: number }>(
        t.app.ctx.db,
        sql`SELECT contract_id AS id, ${dpdOn(TODAY, FIGURES_TABLE)} AS dpd FROM contract_figures
            WHERE contract_id IN (${paid.id}, ${other.id}) ORDER BY contract_id`,
      );
      // The payment's figures stand; the others moved on a day.
      expect(after).toEqual([
        { id: paid.id, dpd: 0 },
        { id: other.id, dpd: other.dpd + 1 },
      ]);
    } finally {
      await t.close();
    }
  });

  it('leaves active a contract whose arrears a payment cleared while the defaults step waited for it', async () => {
    const t = await startTestApp('postgres');
    try {
      t.clock.ms = NOON;
      const book = await seedBook(t.app.ctx);
      await refreshDelinquency(t.app.ctx, TODAY);
      // A payment clearing book.a's arrears (62 days past due, default after 60), not yet committed:
      // it holds the contract's row, as a payment does.
      const release = signal();
      const written = signal();
      const payment = withTransaction(t.app.ctx, async (tx) => {
        await tx.tx.execute(sql`SELECT id FROM contracts WHERE id = ${book.a} FOR UPDATE`);
        await tx.tx.execute(
          sql`UPDATE contract_figures SET arrears_since = NULL WHERE contract_id = ${book.a}`,
        );
        written.fire();
        await release.fired;
      });
      await written.fired;
      // The step finds book.a due and waits for its row; the payment then commits.
      const step = withTransaction(t.app.ctx, (tx) => defaultOverdue(tx, SYSTEM_ACTOR, TODAY));
      await expect.poll(() => lockWaits(t, 'transactionid')).toBe(1);
      release.fire();
      await payment;
      expect(await step).toEqual([]);
      const [row] = await queryRows<{ status: string; lines: number }>(
        t.app.ctx.db,
        sql`SELECT c.status, (SELECT count(*)::int FROM contract_events e WHERE e.contract_id = c.id AND e.type = 'defaulted') AS lines
            FROM contracts c WHERE c.id = ${book.a}`,
      );
      expect(row).toEqual({ status: 'active', lines: 0 });
    } finally {
      await t.close();
    }
  });

  it('makes an arrears refresh wait for the close step under way, so the two never deadlock', async () => {
    const t = await startTestApp('postgres');
    try {
      t.clock.ms = NOON;
      await seedBook(t.app.ctx);
      // A step of a close in flight: its transaction holds the book's figures lock.
      const release = signal();
      const taken = signal();
      const step = withTransaction(t.app.ctx, async (tx) => {
        await takeFiguresLock(tx);
        taken.fire();
        await release.fired;
      });
      await taken.fired;
      // A start's (or a change of buckets') refresh of every contract's figures waits for it.
      const refresh = refreshDelinquency(t.app.ctx, TODAY);
      await expect.poll(() => lockWaits(t, 'advisory')).toBe(1);
      release.fire();
      await step;
      expect(await refresh).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});

describe('close of business stages', () => {
  it("hold every step once, in the steps' order", () => {
    expect(STAGES.flat(2)).toEqual([...EOD_STEPS]);
  });
});

/**
 * Runs `statement` in a transaction of its own and holds it uncommitted until `release`, then rolls
 * it back: what the close writes after it waits for it meanwhile. Answers once it is held.
 */
async function heldUncommitted(
  ctx: AppContext,
  statement: SQL,
): Promise<{ release: () => void; settled: Promise<string> }> {
  const release = signal();
  const held = signal();
  const settled = withTransaction(ctx, async (tx) => {
    await tx.tx.execute(statement);
    held.fire();
    await release.fired;
    throw new Error('rolled back');
  }).catch(() => 'rolled back');
  await held.fired;
  return { release: () => release.fire(), settled };
}

describe.runIf(DATABASE_KINDS.includes('postgres'))('close of business stages on PostgreSQL', () => {
  it('runs the late fees beside the locks and the defaults, each step in its own transaction', async () => {
    const t = await startTestApp('postgres');
    try {
      t.clock.ms = NOON;
      const book = await seedBook(t.app.ctx);
      // A charge of book.a's first instalment (62 days past due), not yet committed: the late fees'
      // charge of the same instalment waits for it, and nothing else of the close does.
      const [first] = await queryRows<{ schedule_version: number; n: number }>(
        t.app.ctx.db,
        sql`SELECT i.schedule_version, i.n FROM contract_installments i
            JOIN contracts c ON c.id = i.contract_id AND c.schedule_version = i.schedule_version
            WHERE i.contract_id = ${book.a} ORDER BY i.n LIMIT 1`,
      );
      const rivalCharge = await heldUncommitted(
        t.app.ctx,
        sql`UPDATE contract_installments SET penalty_due = penalty_due + 1, late_fee_on = ${TODAY}
          WHERE contract_id = ${book.a} AND schedule_version = ${first?.schedule_version} AND n = ${first?.n}`,
      );
      const close = closeBusinessDate(t.app.ctx, TODAY, { trigger: 'demand', actor: SYSTEM_ACTOR });
      const steps = async () =>
        Object.fromEntries(
          (
            await queryRows<{ step: string; status: string }>(
              t.app.ctx.db,
              sql`SELECT step, status FROM eod_steps WHERE business_date = ${TODAY}`,
            )
          ).map((row) => [row.step, row.status]),
        );
      // The other branch of the stage ends while the late fees wait; the next stage waits for both.
      // The other branch's steps take longer than poll's default second on a loaded machine.
      await expect.poll(steps, { timeout: 15_000 }).toEqual({
        delinquency: 'completed',
        device_locks: 'completed',
        defaults: 'completed',
      });
      expect(await lockWaits(t, 'transactionid')).toBe(1);
      rivalCharge.release();
      expect(await rivalCharge.settled).toBe('rolled back');
      const [closed] = (await close).runs;
      expect(closed?.status).toBe('completed');
      // The run's time is measured around its steps, not their durations added up.
      expect(closed?.elapsedMs).toBeGreaterThan(0);
      const [charged] = await queryRows<{ amount: number }>(
        t.app.ctx.db,
        sql`SELECT amount::int FROM ${LATE_FEES} x WHERE contract_id = ${book.a} AND n = ${first?.n}`,
      );
      expect(charged?.amount).toBeGreaterThan(1);
    } finally {
      await t.close();
    }
  });
  it('takes the snapshot beside the promises and the reminders, each in its own transaction', async () => {
    const t = await startTestApp('postgres');
    try {
      t.clock.ms = NOON;
      const book = await seedBook(t.app.ctx);
      // A collections case of book.a (62 days past due), not yet committed: the promises step's
      // scoring of the same case waits for it, and neither the reminders nor the snapshot do.
      const rivalCase = await heldUncommitted(
        t.app.ctx,
        sql`INSERT INTO collection_cases (contract_id, customer_id, plan_id, bucket, dpd,
            amount_overdue, regular_payment, currency, score, dpd_points, amount_points, risk_points,
            promise_points, contact_points, in_queue, scored_on, updated_at)
          SELECT id, customer_id, plan_id, 'current', 0, 0, 0, currency, 0, 0, 0, 0, 0, 0, false, ${TODAY}, now()
          FROM contracts WHERE id = ${book.a}`,
      );
      const close = closeBusinessDate(t.app.ctx, TODAY, { trigger: 'demand', actor: SYSTEM_ACTOR });
      const completed = async () =>
        (
          await queryRows<{ step: string }>(
            t.app.ctx.db,
            sql`SELECT step FROM eod_steps WHERE business_date = ${TODAY} AND status = 'completed' ORDER BY step`,
          )
        ).map((row) => row.step);
      await expect
        .poll(completed, { timeout: 15_000 })
        .toEqual(
          [
            'defaults',
            'delinquency',
            'device_locks',
            'interest_accrual',
            'late_fees',
            'reminders',
            'snapshot',
          ].sort(),
        );
      expect(await lockWaits(t, 'transactionid')).toBe(1);
      rivalCase.release();
      expect(await rivalCase.settled).toBe('rolled back');
      const [closed] = (await close).runs;
      expect(closed?.status).toBe('completed');
      expect(await completed()).toHaveLength(EOD_STEPS.length);
    } finally {
      await t.close();
    }
  });
});
