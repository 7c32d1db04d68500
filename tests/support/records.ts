import { desc, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/db/client';
import { auditLog } from '../../src/db/schema';

/** The database's refusal of a statement (drizzle wraps it as the error's cause), or 'accepted'. */
export async function refusal(db: Db, statement: SQL): Promise<string> {
  try {
    await db.execute(statement);
  } catch (error) {
    return String((error as Error & { cause?: Error }).cause?.message ?? error);
  }
  return 'accepted';
}

/** The newest audit row's id. */
export async function newestAuditId(db: Db): Promise<number> {
  const [row] = await queryRows<{ id: string | number }>(db, sql`SELECT max(id) AS id FROM audit_log`);
  return Number(row?.id);
}

/** The newest audit row of an action, or undefined. */
export async function lastAudit(db: Db, action: string) {
  const [row] = await db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

export interface PostedLine {
  source_type: string;
  account_code: string;
  debit: number;
  credit: number;
}

/** Every journal line posted for a source (a unit, an import, a contract), entry by entry. */
export function journalLinesOf(db: Db, sourceId: string): Promise<PostedLine[]> {
  return queryRows<PostedLine>(
    db,
    sql`SELECT e.source_type, l.account_code, l.debit::int AS debit, l.credit::int AS credit
        FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
        WHERE e.source_id = ${sourceId}
        ORDER BY e.number, l.account_code`,
  );
}
