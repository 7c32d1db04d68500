import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { AppContext, Executor, TxContext } from '../context';
import { rekeyDeviceSecrets } from '../modules/devices/rekey';
import { Keyring } from '../secrets';
import { fileStorage } from '../storage';
import { withTransaction } from '../transaction';
import { importTables } from './copy';
import { DEMO_JPEG, DEMO_PDF, DEMO_PNG } from './files';
import { DEMO_TEMPLATE_SCHEMA, DEMO_TEMPLATE_SECRET, type DemoTemplate } from './template';

const DAY_MS = 86_400_000;
/** One demo load at a time when several instances start on one new PostgreSQL database. */
const ONE_DEMO_LOAD_AT_A_TIME = 3_402_511;

/**
 * At a start with DEMO_DATA, makes a new database the demo book (decision 025). An embedded
 * database made from the demo template already holds it (its marker schema says so); any other
 * database with no users and no audit rows (a new PostgreSQL database) gets the template's rows
 * copied in. Either way, in the same transaction, the book is brought to today and re-keyed.
 * `template` gives the template's files (building them first if need be). Answers whether the
 * book was loaded now, so the start gives the demo users their passwords.
 */
export async function loadDemoBook(ctx: AppContext, template: () => Promise<DemoTemplate>): Promise<boolean> {
  const builtAt = await templateBuiltAt(ctx.db);
  if (builtAt) {
    await withTransaction(ctx, async (tx) => {
      await freshen(tx, builtAt);
      await tx.tx.execute(sql`DROP SCHEMA ${sql.identifier(DEMO_TEMPLATE_SCHEMA)} CASCADE`);
    });
    return true;
  }
  if (!(await isEmpty(ctx.db))) return false;
  const { rows } = await template();
  return withTransaction(ctx, async (tx) => {
    await tx.tx.execute(sql`SELECT pg_advisory_xact_lock(${ONE_DEMO_LOAD_AT_A_TIME})`);
    if (!(await isEmpty(tx.tx))) return false; // another instance loaded it meanwhile
    await freshen(tx, await importTables(tx.tx, rows));
    return true;
  });
}

/** When the template was built, if this database is an unopened demo template. */
async function templateBuiltAt(db: Executor): Promise<Date | null> {
  const [marker] = await queryRows<{ present: boolean }>(
    db,
    sql`SELECT to_regclass(${`${DEMO_TEMPLATE_SCHEMA}.build`}) IS NOT NULL AS present`,
  );
  if (!marker?.present) return null;
  const [row] = await queryRows<{ built_at: string }>(
    db,
    sql`SELECT built_at::text AS built_at FROM ${sql.identifier(DEMO_TEMPLATE_SCHEMA)}.build`,
  );
  return row ? new Date(row.built_at) : null;
}

async function isEmpty(db: Executor): Promise<boolean> {
  const [row] = await queryRows<{ empty: boolean }>(
    db,
    sql`SELECT NOT EXISTS (SELECT 1 FROM users) AND NOT EXISTS (SELECT 1 FROM audit_log) AS empty`,
  );
  return row?.empty ?? false;
}

/**
 * Brings a book built at `builtAt` to this instance: its dates move forward by the whole days
 * since, so it looks as live as the day it was built; the OpenPAYGO keys are re-encrypted with
 * this instance's secret; the demo's KYC files are written to this instance's storage. (Its
 * audit rows wait unsealed; the start seals them with its key, as every start does.)
 */
async function freshen(ctx: TxContext, builtAt: Date): Promise<void> {
  const days = Math.floor((ctx.clock.now().getTime() - builtAt.getTime()) / DAY_MS);
  if (days > 0) await shiftDates(ctx, days);
  await rekeyDeviceSecrets(ctx, new Keyring(DEMO_TEMPLATE_SECRET));
  await writeDemoFiles(ctx);
}

/**
 * Every date and time of the book `days` later. Not the audit log (it records when the build
 * really wrote each row, and its chain covers the time) nor a customer's date of birth.
 */
async function shiftDates(ctx: TxContext, days: number): Promise<void> {
  const found = await queryRows<{
    table_name: string;
    column_name: string;
    data_type: string;
    keyed: boolean;
    follows: boolean;
  }>(
    ctx.tx,
    sql`SELECT c.table_name, c.column_name, c.data_type,
               EXISTS (SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                       WHERE i.indrelid = format('%I', c.table_name)::regclass AND i.indisunique
                         AND a.attname = c.column_name) AS keyed,
               EXISTS (SELECT 1 FROM pg_constraint f JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = ANY(f.conkey)
                       WHERE f.conrelid = format('%I', c.table_name)::regclass AND f.contype = 'f'
                         AND f.confupdtype = 'c' AND a.attname = c.column_name) AS follows
        FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
          AND c.data_type IN ('date', 'timestamp with time zone', 'timestamp without time zone')
          AND c.table_name NOT IN ('audit_log', 'audit_checkpoints', 'schema_migrations')
          AND (c.table_name, c.column_name) <> ('customers', 'date_of_birth')
        ORDER BY c.table_name, c.column_name`,
  );
  // A column that points at another with ON UPDATE CASCADE (a close's steps at its run) moves with it.
  const columns = found.filter((column) => !column.follows);
  const byTable = new Map<string, typeof columns>();
  for (const column of columns)
    byTable.set(column.table_name, [...(byTable.get(column.table_name) ?? []), column]);
  const shift = (table: string, list: typeof columns, by: number) => {
    const sets = list.map(({ column_name: name, data_type: type }) =>
      type === 'date'
        ? sql`${sql.identifier(name)} = ${sql.identifier(name)} + ${by}::int`
        : sql`${sql.identifier(name)} = ${sql.identifier(name)} + make_interval(days => ${by}::int)`,
    );
    const any = list.map(({ column_name: name }) => sql`${sql.identifier(name)} IS NOT NULL`);
    return ctx.tx.execute(
      sql`UPDATE ${sql.identifier(table)} SET ${sql.join(sets, sql`, `)} WHERE ${sql.join(any, sql` OR `)}`,
    );
  };
  for (const [table, list] of byTable) {
    // A unique key on a date (one close of business per date) is checked row by row as the
    // update goes: a row moved onto a date another has not left yet collides. Such tables move
    // far out first, where no row is, then back to their place.
    if (list.some((column) => column.keyed)) {
      await shift(table, list, FAR_DAYS);
      await shift(table, list, days - FAR_DAYS);
    } else await shift(table, list, days);
  }
}

/** Further than any book spans: dates moved this far meet none left behind. */
const FAR_DAYS = 1_000_000;

/** The demo's KYC documents are its three fixed files; the template keeps only their rows. */
async function writeDemoFiles(ctx: TxContext): Promise<void> {
  const documents = await queryRows<{ storage_key: string; mime_type: string }>(
    ctx.tx,
    sql`SELECT storage_key, mime_type FROM kyc_documents`,
  );
  const storage = fileStorage(ctx);
  const content: Record<string, Buffer> = {
    'image/jpeg': DEMO_JPEG,
    'image/png': DEMO_PNG,
    'application/pdf': DEMO_PDF,
  };
  for (const document of documents) {
    const data = content[document.mime_type];
    if (data) await storage.put(document.storage_key, data, document.mime_type);
  }
}
