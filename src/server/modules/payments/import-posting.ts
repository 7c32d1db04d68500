import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { paymentImportRows, paymentImports } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { conflict } from '../../errors';
import { withTransaction } from '../../transaction';
import { postImportChunk } from './bulk-posting';
import { unmappedFields } from './import-parse';
import { lockImport, rememberMapping, storedMapping } from './imports';

/**
 * Confirming a statement import: the import moves to `posting` (one audit row for the confirm;
 * each payment it posts carries `import_id`, so no audit row per payment), then its valid rows
 * are posted in chunks, each chunk in its own transaction, so progress (`posted_count` out of
 * `valid_count`) shows while it runs and a run cut short resumes where it stopped: a confirm of
 * an import still `posting` starts it again, and rows already posted are skipped (their
 * `payment_id` is set, and `(method, reference)` is unique in payments).
 */

/** Rows per transaction: large enough for bulk inserts, small enough for progress and short locks. */
export const CHUNK_ROWS = 2000;

/** Marks the import as confirmed (or resumed); the caller's transaction commits it. */
export async function confirmImport(ctx: TxContext, actor: Actor, id: string): Promise<void> {
  const imp = await lockImport(ctx, id);
  if (imp.status === 'posting') return; // a resume: the run picks up the rows not yet posted
  if (imp.status !== 'previewed') {
    throw conflict(`This import is ${imp.status}; it cannot be confirmed`, 'IMPORT_STATE');
  }
  const stored = storedMapping(imp.mapping);
  if (unmappedFields(stored.mapping, stored.columns).length) {
    throw conflict('Map every column (contract, amount, reference, date) before confirming', 'IMPORT_STATE');
  }
  const now = ctx.clock.now();
  await ctx.tx
    .update(paymentImports)
    .set({ status: 'posting', confirmedBy: actor.id, confirmedAt: now })
    .where(eq(paymentImports.id, id));
  await rememberMapping(ctx, actor, imp.source, stored.mapping);
  await writeAudit(ctx.tx, actor, {
    action: 'payment.import_confirm',
    entityType: 'payment_import',
    entityId: id,
    before: { status: imp.status },
    after: { status: 'posting', rows: imp.rowCount, valid: imp.validCount },
  });
}

/** Imports being posted by this instance, so a second confirm joins the run instead of racing it. */
const running = new Map<string, Promise<void>>();

/** Starts (or joins) the posting of a confirmed import in the background of this instance. */
export function runImport(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const current = running.get(id);
  if (current) return current;
  const run = postAll(ctx, actor, id)
    .catch((error: unknown) => {
      ctx.log.error(
        { err: error, importId: id },
        'posting a statement import stopped; confirm it again to resume',
      );
    })
    .finally(() => running.delete(id));
  running.set(id, run);
  return run;
}

async function postAll(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  for (;;) {
    const done = await withTransaction(ctx, (tx) => postChunk(tx, actor, id));
    if (done) return;
  }
}

/** Posts the next chunk of rows; true when nothing is left (the import is then `posted`). */
async function postChunk(ctx: TxContext, actor: Actor, id: string): Promise<boolean> {
  // The import's row lock serialises runners on several instances.
  const imp = await lockImport(ctx, id);
  if (imp.status !== 'posting') return true;
  const rows = await ctx.tx
    .select()
    .from(paymentImportRows)
    .where(
      and(
        eq(paymentImportRows.importId, id),
        isNull(paymentImportRows.error),
        isNull(paymentImportRows.paymentId),
      ),
    )
    .orderBy(asc(paymentImportRows.rowNumber))
    .limit(CHUNK_ROWS);
  if (!rows.length) {
    await ctx.tx.update(paymentImports).set({ status: 'posted' }).where(eq(paymentImports.id, id));
    return true;
  }
  const stored = storedMapping(imp.mapping);
  const result = await postImportChunk(ctx, actor, {
    importId: id,
    method: imp.method as Exclude<typeof imp.method, 'deposit'>,
    mapping: stored,
    rows,
  });
  await ctx.tx
    .update(paymentImports)
    .set({
      postedCount: sql`${paymentImports.postedCount} + ${result.posted}`,
      postedAmount: sql`${paymentImports.postedAmount} + ${result.amount}`,
      validCount: sql`${paymentImports.validCount} - ${result.refused}`,
    })
    .where(eq(paymentImports.id, id));
  return false;
}
