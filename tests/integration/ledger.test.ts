import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { SYSTEM_ACTOR } from '../../src/server/audit';
import { postMany } from '../../src/server/modules/ledger/bulk';
import { post } from '../../src/server/modules/ledger/service';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('ledger on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const entry = (lines: Array<{ account: string; debit?: number; credit?: number }>) => ({
    businessDate: '2026-01-15',
    description: 'Test entry',
    sourceType: 'inventory_recovery' as const,
    currency: 'USD',
    lines,
  });
  const entries = async (where = sql`true`) =>
    Number(
      (
        await queryRows<{ n: number }>(
          t.app.ctx.db,
          sql`SELECT count(*)::int AS n FROM journal_entries WHERE ${where}`,
        )
      )[0]?.n,
    );

  it('posts a balanced entry and shows it in the journal and trial balance', async () => {
    await t.app.ctx.db.transaction((tx) =>
      post(
        tx,
        SYSTEM_ACTOR,
        entry([
          { account: '1000', debit: 5_000 },
          { account: '3000', credit: 5_000 },
        ]),
      ),
    );
    const finance = await t.signedIn('finance');
    const journal = (await finance.get('/api/ledger/journal?sourceType=inventory_recovery')).json();
    const unknown = await finance.get('/api/ledger/journal?sourceType=test');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('sourceType must be one of: deposit, contract_activation, payment');
    expect(journal.items[0]).toMatchObject({
      number: expect.stringMatching(/^JE-\d{7}$/),
      businessDate: '2026-01-15',
    });
    const trial = (await finance.get('/api/ledger/trial-balance?asOf=2026-01-31')).json();
    expect(trial.rows.find((r: { code: string }) => r.code === '1000')).toMatchObject({
      debit: 5_000,
      balance: 5_000,
    });
    expect(trial.balanced).toBe(true);
    expect((await finance.get('/api/ledger/trial-balance?asOf=2026-01-01')).json().totals).toEqual({
      debit: 0,
      credit: 0,
    });
    expect((await finance.get('/api/ledger/accounts')).json()).toHaveLength(24);
  });

  it('refuses an unbalanced entry, a two-sided line, a negative or fractional amount, alone or among many, writing nothing', async () => {
    const before = await entries();
    const balanced = entry([
      { account: '1000', debit: 100 },
      { account: '4000', credit: 100 },
    ]);
    for (const lines of [
      [
        { account: '1000', debit: 100 },
        { account: '4000', credit: 90 },
      ],
      [
        { account: '1000', debit: 100, credit: 100 },
        { account: '4000', credit: 0 },
      ],
      [
        { account: '1000', debit: -100 },
        { account: '4000', credit: -100 },
      ],
      [
        { account: '1000', debit: 100.5 },
        { account: '4000', credit: 100.5 },
      ],
      [{ account: '1000', debit: 100 }],
    ]) {
      // One way of checking for every way in: a single entry, and a batch's (payments, imports).
      await expect(
        t.app.ctx.db.transaction((tx) => post(tx, SYSTEM_ACTOR, entry(lines))),
      ).rejects.toMatchObject({ statusCode: 422 });
      await expect(
        t.app.ctx.db.transaction((tx) => postMany(tx, SYSTEM_ACTOR, [balanced, entry(lines), balanced])),
      ).rejects.toMatchObject({ statusCode: 422 });
    }
    expect(await entries()).toBe(before);
  });

  it('has the database refuse an unbalanced entry, whatever the code above it does', async () => {
    const failure = await t.app.ctx.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO journal_entries (id, number, business_date, description, source_type, currency) VALUES ('x1', 'JE-X1', '2026-01-01', 'forged', 'test', 'USD')`,
        );
        await tx.execute(
          sql`INSERT INTO journal_lines (entry_id, account_code, debit) VALUES ('x1', '1000', 100)`,
        );
        await tx.execute(
          sql`INSERT INTO journal_lines (entry_id, account_code, credit) VALUES ('x1', '4000', 99)`,
        );
      })
      .then(
        () => null,
        (error: Error & { cause?: Error }) => error,
      );
    // The statement that leaves an entry unbalanced is refused (decision 034); drivers report it
    // directly or as the cause of "Failed query".
    expect(`${failure?.message} ${failure?.cause?.message ?? ''}`).toMatch(/does not balance/);
    expect(await entries(sql`id = 'x1'`)).toBe(0);
  });

  it('has the database keep every line on an existing entry and account, and every named parent in place', async () => {
    const refused = (statement: ReturnType<typeof sql>) =>
      t.app.ctx.db.execute(statement).then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
      );
    await t.app.ctx.db.execute(
      sql`INSERT INTO journal_entries (id, number, business_date, description, source_type, currency) VALUES ('p1', 'JE-P1', '2026-01-01', 'parents', 'test', 'USD')`,
    );
    // Checked once per statement over every line it wrote (decision 045), one bad line among good ones.
    expect(
      await refused(sql`INSERT INTO journal_lines (entry_id, account_code, debit, credit) VALUES
        ('p1', '1000', 100, 0), ('p1', '4000', 0, 60), ('p1', '9999', 0, 40)`),
    ).toMatch(/journal_lines must belong to an existing row of ledger_accounts: account_code 9999/);
    expect(
      await refused(sql`INSERT INTO journal_lines (entry_id, account_code, debit, credit) VALUES
        ('no-entry', '1000', 100, 0), ('no-entry', '4000', 0, 100)`),
    ).toMatch(/existing row of journal_entries: entry_id no-entry/);
    expect(
      await refused(sql`INSERT INTO journal_entries (id, number, business_date, description, source_type, currency, created_by)
        VALUES ('p2', 'JE-P2', '2026-01-01', 'forged', 'test', 'USD', 'no-user')`),
    ).toMatch(/existing row of users: created_by no-user/);
    expect(
      await refused(
        sql`INSERT INTO payment_allocations (payment_id, contract_id, schedule_version, component, amount) VALUES ('no-payment', 'no-contract', 1, 'principal', 1)`,
      ),
    ).toMatch(/existing row of payments: payment_id no-payment/);
    // The parents' side: a named row is not deleted, and no key changes.
    await t.app.ctx.db.execute(
      sql`INSERT INTO journal_lines (entry_id, account_code, debit, credit) VALUES ('p1', '1000', 100, 0), ('p1', '4000', 0, 100)`,
    );
    expect(await refused(sql`DELETE FROM journal_entries WHERE id = 'p1'`)).toMatch(
      /p1 of journal_entries is still named by journal_lines.entry_id/,
    );
    expect(await refused(sql`DELETE FROM ledger_accounts WHERE code = '4000'`)).toMatch(
      /4000 of ledger_accounts is still named by journal_lines.account_code/,
    );
    expect(await refused(sql`UPDATE ledger_accounts SET code = '4001' WHERE code = '4000'`)).toMatch(
      /key of a row of ledger_accounts never changes/,
    );
    expect(await refused(sql`UPDATE journal_lines SET account_code = '9999' WHERE entry_id = 'p1'`)).toMatch(
      /existing row of ledger_accounts: account_code 9999/,
    );
    expect(await entries(sql`id IN ('p1', 'p2')`)).toBe(1);
  });

  it('refuses a line added to a balanced entry later, and a statement with one unbalanced entry among many', async () => {
    await t.app.ctx.db.transaction(async (tx) => {
      await tx.execute(
        sql`INSERT INTO journal_entries (id, number, business_date, description, source_type, currency) VALUES ('x2', 'JE-X2', '2026-01-01', 'fine', 'test', 'USD'), ('x3', 'JE-X3', '2026-01-01', 'fine', 'test', 'USD')`,
      );
      await tx.execute(
        sql`INSERT INTO journal_lines (entry_id, account_code, debit, credit) VALUES ('x2', '1000', 100, 0), ('x2', '4000', 0, 100)`,
      );
    });
    const refused = (work: Promise<unknown>) =>
      work.then(
        () => '',
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
      );
    expect(
      await refused(
        t.app.ctx.db.execute(
          sql`INSERT INTO journal_lines (entry_id, account_code, debit) VALUES ('x2', '1000', 5)`,
        ),
      ),
    ).toMatch(/Journal entry x2 does not balance/);
    expect(
      await refused(
        t.app.ctx.db.execute(
          sql`INSERT INTO journal_lines (entry_id, account_code, debit, credit) VALUES ('x3', '1000', 7, 0), ('x3', '4000', 0, 6)`,
        ),
      ),
    ).toMatch(/Journal entry x3 does not balance/);
    expect(
      await refused(
        t.app.ctx.db.execute(sql`DELETE FROM journal_lines WHERE entry_id = 'x2' AND account_code = '4000'`),
      ),
    ).toMatch(/Journal entry x2 does not balance/);
    const [x2] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM journal_lines WHERE entry_id = 'x2'`,
    );
    expect(x2?.n).toBe(2);
  });
});
