import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { SYSTEM_ACTOR } from '../../src/server/audit';
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
    sourceType: 'test',
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
    const journal = (await finance.get('/api/ledger/journal?sourceType=test')).json();
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

  it('refuses an unbalanced entry, a two-sided line and a negative amount, writing nothing', async () => {
    const before = await entries();
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
      [{ account: '1000', debit: 100 }],
    ]) {
      await expect(
        t.app.ctx.db.transaction((tx) => post(tx, SYSTEM_ACTOR, entry(lines))),
      ).rejects.toMatchObject({
        statusCode: 422,
      });
    }
    expect(await entries()).toBe(before);
  });

  it('has the database refuse an unbalanced entry at commit, whatever the code above it does', async () => {
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
    // The refusal comes at COMMIT; drivers report it directly or as the cause of "Failed query: commit".
    expect(`${failure?.message} ${failure?.cause?.message ?? ''}`).toMatch(/does not balance/);
    expect(await entries(sql`id = 'x1'`)).toBe(0);
  });
});
