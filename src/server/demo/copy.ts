import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client';
import type { Tx } from '../context';

/** Rows per statement: a few megabytes of JSON, well under what either engine takes in one. */
const PAGE = 5_000;

/**
 * Tables never copied: the target's own migrations', and those a trigger fills from the rows
 * copied (a contract's search row, decision 034; the payments' counts, decision 045, and their
 * version, decision 048).
 */
const NOT_COPIED = new Set(['schema_migrations', 'contract_search', 'payment_counts', 'payment_changes']);

/**
 * Tables whose rows a statement-level trigger checks together, by the column that groups them: a
 * journal entry's lines must arrive in one statement (migration 0028), so a page never splits one.
 */
const GROUPED_BY: Record<string, string> = { journal_lines: 'entry_id' };

/**
 * Tables a trigger fills with a row per contract inserted (its figures, decision 041): the copy
 * writes over those rows, by the key given.
 */
const UPSERTED_ON: Record<string, string> = { contract_figures: 'contract_id' };

/** One statement's worth of a table: its columns and its rows as JSON text. */
interface Page {
  table: string;
  columns: string[];
  rows: string;
}

/** What a copy of the book needs besides the rows: when it was built, where each sequence stands. */
interface Header {
  builtAt: string;
  sequences: Array<{ name: string; value: string }>;
}

/**
 * Writes every table of the `public` schema of `source` (the demo template being built) to a
 * gzipped file of JSON lines: a header with the sequences, then pages of rows, parents before
 * children, generated columns left out. A copy made from it needs no PGlite at start.
 */
export async function exportTables(source: Database, file: string, builtAt: Date): Promise<void> {
  const read = <T>(text: string) => source.withConnection((connection) => connection.query<T>(text));
  const tables = await read<{ name: string; columns: string[]; parents: string[] }>(`
    SELECT c.relname AS name,
           array(SELECT quote_ident(a.attname) FROM pg_attribute a
                 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                 ORDER BY a.attnum) AS columns,
           -- Parents named by a foreign key, or by the trigger that checks them instead (decision
           -- 045: its arguments are triples of column, parent table, parent column).
           array(SELECT DISTINCT p.relname FROM pg_constraint f JOIN pg_class p ON p.oid = f.confrelid
                 WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid
                 UNION
                 SELECT a.parent FROM pg_trigger t,
                   unnest(string_to_array(encode(t.tgargs, 'escape'), '\\000')) WITH ORDINALITY AS a(parent, i)
                 WHERE t.tgrelid = c.oid AND t.tgname = c.relname || '_parents_on_insert' AND a.i % 3 = 2
                   AND a.parent <> c.relname) AS parents
    FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'`);
  const header: Header = {
    builtAt: builtAt.toISOString(),
    sequences: await read<{ name: string; value: string }>(
      `SELECT quote_ident(sequencename) AS name, last_value::text AS value FROM pg_sequences
       WHERE schemaname = 'public' AND last_value IS NOT NULL`,
    ),
  };
  const lines = [JSON.stringify(header)];
  for (const table of parentsFirst(tables.filter((candidate) => !NOT_COPIED.has(candidate.name)))) {
    const group = GROUPED_BY[table.name];
    const pages = group
      ? groupedPages(read, table.name, table.columns, group)
      : plainPages(read, table.name, table.columns);
    for await (const rows of pages) {
      lines.push(JSON.stringify({ table: table.name, columns: table.columns, rows } satisfies Page));
    }
  }
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, gzipSync(lines.join('\n')));
  renameSync(partial, file);
}

/**
 * Copies the tables `exportTables` wrote into the target transaction's database, which must be
 * migrated to the same schema and hold no data but what its migrations insert (that is replaced),
 * and sets the sequences where the source's stood. Answers when the book was built.
 */
export async function importTables(target: Tx, file: string): Promise<Date> {
  const [first = '', ...rest] = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  const header = JSON.parse(first) as Header;
  const pages = rest.map((line) => JSON.parse(line) as Page);
  // What the target's migrations inserted (the chart of accounts, say) gives way to the source's,
  // children first; only tables with rows, since some refuse any DELETE (contracts are never deleted).
  const tables = [...new Set(pages.map((page) => page.table))];
  for (const table of tables.reverse()) {
    const [filled] = await queryRows<{ any: boolean }>(
      target,
      sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(table)}) AS any`,
    );
    if (filled?.any) await target.execute(sql`DELETE FROM ${sql.identifier(table)}`);
  }
  for (const page of pages) {
    const columns = sql.raw(page.columns.join(', '));
    const key = UPSERTED_ON[page.table];
    const onConflict = key
      ? sql.raw(
          `ON CONFLICT (${quote(key)}) DO UPDATE SET ${page.columns
            .filter((column) => column !== key && column !== quote(key))
            .map((column) => `${column} = excluded.${column}`)
            .join(', ')}`,
        )
      : sql``;
    await target.execute(sql`
      INSERT INTO ${sql.identifier(page.table)} (${columns})
      SELECT ${columns} FROM json_populate_recordset(NULL::${sql.identifier(page.table)}, ${page.rows}::json)
      ${onConflict}`);
  }
  for (const sequence of header.sequences) {
    await queryRows(target, sql`SELECT setval(${sequence.name}, ${sequence.value}::bigint)`);
  }
  return new Date(header.builtAt);
}

type Read = <T>(text: string) => Promise<T[]>;

/** A table's rows, PAGE at a time in storage order. */
async function* plainPages(read: Read, table: string, columns: string[]): AsyncGenerator<string> {
  for (let offset = 0; ; offset += PAGE) {
    const [page] = await read<{ rows: string | null; n: number }>(
      `SELECT json_agg(x)::text AS rows, count(*)::int AS n
       FROM (SELECT ${columns.join(', ')} FROM ${quote(table)} ORDER BY ctid LIMIT ${PAGE} OFFSET ${offset}) x`,
    );
    if (!page?.rows) return;
    yield page.rows;
    if (page.n < PAGE) return;
  }
}

/** A table's rows by whole groups (every row sharing `group`'s value in one page), about PAGE a time. */
async function* groupedPages(
  read: Read,
  table: string,
  columns: string[],
  group: string,
): AsyncGenerator<string> {
  const key = quote(group);
  let after: string | null = null;
  for (;;) {
    const from: string = after === null ? '' : `WHERE ${key} > ${literal(after)}`;
    const [page]: Array<{ rows: string | null; last: string | null }> = await read(
      `WITH groups AS (SELECT DISTINCT ${key} AS k FROM ${quote(table)} ${from} ORDER BY 1 LIMIT ${PAGE / 5})
       SELECT json_agg(x)::text AS rows, (SELECT max(k)::text FROM groups) AS last
       FROM (SELECT ${columns.join(', ')} FROM ${quote(table)}
             WHERE ${key} IN (SELECT k FROM groups) ORDER BY ${key}, ctid) x`,
    );
    if (!page?.rows || page.last === null) return;
    yield page.rows;
    after = page.last;
  }
}

function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The tables ordered so that every table comes after those its rows point at. */
function parentsFirst<T extends { name: string; parents: string[] }>(tables: T[]): T[] {
  const names = new Set(tables.map((table) => table.name));
  const ordered: T[] = [];
  const placed = new Set<string>();
  let rest = tables.map((table) => ({
    table,
    parents: table.parents.filter((parent) => names.has(parent)),
  }));
  while (rest.length) {
    const ready = rest.filter(({ parents }) => parents.every((parent) => placed.has(parent)));
    if (!ready.length)
      throw new Error(`Foreign keys form a cycle among ${rest.map((r) => r.table.name).join(', ')}`);
    for (const { table } of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    rest = rest.filter(({ table }) => !placed.has(table.name));
  }
  return ordered;
}
