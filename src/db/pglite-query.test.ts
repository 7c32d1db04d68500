import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteQueries, textValue } from './pglite-query';
import { MAX_STATEMENTS } from './pglite-statements';

describe('textValue: parameters written as node-postgres writes them', () => {
  it('keeps NULL, strings and numbers, and writes dates, bytes, objects and arrays', () => {
    expect(textValue(null)).toBeNull();
    expect(textValue(undefined)).toBeNull();
    expect(textValue('a\u0000b')).toBe('a\u0000b');
    expect(textValue(-1.5)).toBe('-1.5');
    expect(textValue(2n ** 64n)).toBe('18446744073709551616');
    expect(textValue(false)).toBe('false');
    expect(textValue(new Date('2026-12-05T10:00:00.000Z'))).toBe('2026-12-05T10:00:00.000Z');
    expect(textValue(new Uint8Array([0, 15, 255]))).toBe('\\x000fff');
    expect(textValue({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(textValue([1, null, 'a"b', 'c\\d', [2, 3]])).toBe('{"1",NULL,"a\\"b","c\\\\d",{"2","3"}}');
  });
});

describe('pgliteQueries on a PGlite database', () => {
  const client = new PGlite('memory://');
  const queries = pgliteQueries(client);
  beforeAll(async () => {
    await client.waitReady;
    await client.exec(
      'CREATE TABLE t (id int PRIMARY KEY, name text, at timestamptz, doc jsonb, tags text[])',
    );
  });
  afterAll(() => client.close());

  it('round-trips each kind of parameter and parses each column by its type', async () => {
    const at = new Date('2026-02-28T23:59:59.123Z');
    await queries.query('INSERT INTO t VALUES ($1, $2, $3, $4, $5)', [
      1,
      'Ann "A" \\',
      at,
      { k: [1, null] },
      ['x', 'y"z', null],
    ]);
    const { rows } = await queries.query('SELECT * FROM t WHERE id = $1', [1]);
    expect(rows).toEqual([
      { id: 1, name: 'Ann "A" \\', at, doc: { k: [1, null] }, tags: ['x', 'y"z', null] },
    ]);
    const bytes = await queries.query<{ b: Uint8Array }>('SELECT $1::bytea AS b', [
      new Uint8Array([1, 2, 255]),
    ]);
    expect([...(bytes.rows[0]?.b ?? [])]).toEqual([1, 2, 255]);
  });

  it("uses the caller's parser for its types, PGlite's for the rest, and rows as arrays when asked", async () => {
    const result = await queries.query('SELECT id, at FROM t WHERE id = $1', [1], {
      rowMode: 'array',
      parsers: { [types.TIMESTAMPTZ]: (value: string) => `raw:${value}` },
    });
    expect(result.rows).toEqual([[1, 'raw:2026-02-28 23:59:59.123+00']]);
    expect(result.fields.map((field) => field.name)).toEqual(['id', 'at']);
  });

  it('counts the rows a write touched', async () => {
    const result = await queries.query("UPDATE t SET name = 'B' WHERE id IN (1, 2)");
    expect(result.affectedRows).toBe(1);
  });

  it('refuses with the database error, naming the statement, and the connection goes on', async () => {
    const failure = await queries
      .query('INSERT INTO t (id) VALUES ($1)', [1])
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '23505', query: 'INSERT INTO t (id) VALUES ($1)', params: [1] });
    const bad = await queries.query('SELECT $1::int', ['not a number']).catch((error: unknown) => error);
    expect(bad).toMatchObject({ code: '22P02' });
    expect((await queries.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
  });

  it('runs a transaction alone: its statements are rolled back on failure, and others wait for it', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await queries
      .transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES ($1)', [2]);
        outside = queries.query('SELECT count(*)::int AS n FROM t').then((result) => {
          order.push('outside');
          return result.rows;
        });
        await new Promise((resolve) => setImmediate(resolve));
        order.push('failed');
        throw new Error('stop');
      })
      .catch(() => order.push('rolled back'));
    expect(await outside).toEqual([{ n: 1 }]);
    expect(order).toEqual(['failed', 'rolled back', 'outside']);
  });

  const prepared = async () =>
    (
      await client.query<{ name: string; statement: string }>(
        'SELECT name, statement FROM pg_prepared_statements ORDER BY name',
      )
    ).rows;

  it('keeps a query by name: parsed once, bound and executed by name after', async () => {
    const text = 'SELECT name FROM t WHERE id = $1';
    for (let i = 0; i < 3; i++) expect((await queries.query(text, [1])).rows).toEqual([{ name: 'B' }]);
    expect((await prepared()).filter((row) => row.statement === text)).toHaveLength(1);
    // Transaction control, settings and schema changes are never kept.
    await queries.query('SET LOCAL work_mem = 1024');
    expect((await prepared()).some((row) => row.statement.startsWith('SET'))).toBe(false);
  });

  it('plans a statement over given arrays afresh each run, never keeping it', async () => {
    // The outbox records its answers this way. Kept, after a few small sends, its generic plan
    // (ten array rows assumed, on a nearly empty table) looped over every queued row for each
    // answer: recording a 10,000-message send took 38 s instead of 0.8 s.
    await client.exec(`CREATE TABLE q (id int PRIMARY KEY, status text NOT NULL);
                       CREATE INDEX q_queued ON q (id) WHERE status = 'queued'`);
    queries.forgetPrepared();
    const record = `UPDATE q SET status = 'sent' FROM unnest($1::int[]) AS v(id)
                    WHERE q.id = v.id AND q.status = 'queued' RETURNING q.id`;
    for (let run = 0; run < 8; run++) {
      await queries.query(`INSERT INTO q VALUES (${run}, 'queued')`);
      expect((await queries.query(record, [[run]])).rows).toEqual([{ id: run }]);
    }
    expect((await prepared()).some((row) => row.statement === record)).toBe(false);
    await queries.query(`INSERT INTO q SELECT g, 'queued' FROM generate_series(100, 2099) g`);
    const ids = Array.from({ length: 250 }, (_, i) => 100 + i * 8);
    expect((await queries.query(record, [ids])).rows).toHaveLength(250);
  });

  it('reads a table afresh once its columns change, through query or through a migration', async () => {
    await queries.query('SELECT * FROM t WHERE id = $1', [1]);
    await queries.query('ALTER TABLE t ADD COLUMN note text');
    expect(
      Object.keys((await queries.query('SELECT * FROM t WHERE id = $1', [1])).rows[0] as object),
    ).toContain('note');
    // A migration runs outside query(): its caller forgets the kept statements.
    await client.exec('ALTER TABLE t ADD COLUMN extra int');
    queries.forgetPrepared();
    const [row] = (await queries.query('SELECT * FROM t WHERE id = $1', [1])).rows;
    expect(row).toHaveProperty('extra', null);
  });

  it('keeps a statement whose first execution failed, and not one that did not parse', async () => {
    const divide = 'SELECT 10 / $1::int AS q';
    await expect(queries.query(divide, [0])).rejects.toMatchObject({ code: '22012' });
    expect((await queries.query(divide, [5])).rows).toEqual([{ q: 2 }]);
    await expect(queries.query('SELECT FROM WHERE $1', [1])).rejects.toMatchObject({ code: '42601' });
    expect((await prepared()).some((row) => row.statement === 'SELECT FROM WHERE $1')).toBe(false);
    // Inside a transaction that fails, the statement parsed there stays usable after the rollback.
    await queries
      .transaction(async (tx) => {
        await tx.query('SELECT id FROM t WHERE name = $1', ['B']);
        throw new Error('stop');
      })
      .catch(() => undefined);
    expect((await queries.query('SELECT id FROM t WHERE name = $1', ['B'])).rows).toEqual([{ id: 1 }]);
  });

  it(`keeps at most ${MAX_STATEMENTS}, closing the least recently used`, async () => {
    for (let i = 0; i < MAX_STATEMENTS + 40; i++) await queries.query(`SELECT ${i} + $1::int AS n`, [1]);
    // The last eviction is closed at the next statement (here one kept already).
    const newest = `SELECT ${MAX_STATEMENTS + 39} + $1::int AS n`;
    expect((await queries.query(newest, [1])).rows).toEqual([{ n: MAX_STATEMENTS + 40 }]);
    const kept = await prepared();
    expect(kept.length).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect(kept.some((row) => row.statement === newest)).toBe(true);
    expect(kept.some((row) => row.statement === 'SELECT 1 + $1::int AS n')).toBe(false);
  });
});
