import { desc, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/db/client';
import { auditLog } from '../../src/db/schema';

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
