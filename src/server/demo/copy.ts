import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client';
import type { Tx } from '../context';

/** Rows per statement: a few megabytes of JSON, well under what either engine takes in one. */
const PAGE = 5_000;

/** Tables the target already has from its own migrations, never copied. */
const NOT_COPIED = new Set(['schema_migrations']);

/** Parents a trigger checks instead of a foreign key (an instalment's contract, decision 006). */
const CHECKED_BY_TRIGGER: Record<string, string[]> = { contract_installments: ['contracts'] };

/**
 * Copies every table of the `public` schema from `source` (the demo template, opened in memory)
 * into the target transaction's database, which must be migrated to the same schema and hold no
 * data but what its migrations insert (that is replaced). Tables go in foreign-key order, in pages
 * of JSON rows, generated columns left to the target; sequences are set to where the source's
 * stand. Used for a demo start on PostgreSQL, or on an embedded database that was not made from
 * the template (decision 025).
 */
export async function copyTables(source: Database, target: Tx): Promise<number> {
  const read = <T>(text: string, params: unknown[] = []) =>
    source.withConnection((connection) => connection.query<T>(text, params));
  const tables = await read<{ name: string; columns: string[]; parents: string[] }>(`
    SELECT c.relname AS name,
           array(SELECT quote_ident(a.attname) FROM pg_attribute a
                 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                 ORDER BY a.attnum) AS columns,
           array(SELECT DISTINCT p.relname FROM pg_constraint f JOIN pg_class p ON p.oid = f.confrelid
                 WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS parents
    FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'`);
  const ordered = parentsFirst(tables.filter((table) => !NOT_COPIED.has(table.name)));
  // What the target's migrations inserted (the chart of accounts, say) gives way to the source's.
  // Only tables with rows: some refuse any DELETE statement (contracts are never deleted).
  for (const table of [...ordered].reverse()) {
    const [filled] = await queryRows<{ any: boolean }>(
      target,
      sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(table.name)}) AS any`,
    );
    if (filled?.any) await target.execute(sql`DELETE FROM ${sql.identifier(table.name)}`);
  }
  let copied = 0;
  for (const table of ordered) {
    const columns = table.columns.join(', ');
    for (let offset = 0; ; offset += PAGE) {
      const [page] = await read<{ rows: string | null; n: number }>(
        `SELECT json_agg(x)::text AS rows, count(*)::int AS n
         FROM (SELECT ${columns} FROM ${quote(table.name)} ORDER BY ctid LIMIT ${PAGE} OFFSET ${offset}) x`,
      );
      if (!page?.rows) break;
      await target.execute(sql`
        INSERT INTO ${sql.identifier(table.name)} (${sql.raw(columns)})
        SELECT ${sql.raw(columns)} FROM json_populate_recordset(NULL::${sql.identifier(table.name)}, ${page.rows}::json)`);
      copied += page.n;
      if (page.n < PAGE) break;
    }
  }
  const sequences = await read<{ name: string; value: string }>(
    `SELECT sequencename AS name, last_value::text AS value FROM pg_sequences
     WHERE schemaname = 'public' AND last_value IS NOT NULL`,
  );
  for (const sequence of sequences) {
    await queryRows(target, sql`SELECT setval(${quote(sequence.name)}, ${sequence.value}::bigint)`);
  }
  return copied;
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The tables ordered so that every table comes after those its foreign keys point at. */
function parentsFirst<T extends { name: string; parents: string[] }>(tables: T[]): T[] {
  const ordered: T[] = [];
  const placed = new Set<string>();
  const names = new Set(tables.map((table) => table.name));
  let rest = tables.map((table) => ({
    ...table,
    parents: [...table.parents, ...(CHECKED_BY_TRIGGER[table.name] ?? [])].filter((parent) => names.has(parent)),
  }));
  while (rest.length) {
    const ready = rest.filter((table) => table.parents.every((parent) => placed.has(parent)));
    if (!ready.length) throw new Error(`Foreign keys form a cycle among ${rest.map((t) => t.name).join(', ')}`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    rest = rest.filter((table) => !placed.has(table.name));
  }
  return ordered;
}
