import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { planGenerically, queryRows } from '../../../db/client';
import { paymentImportRows, paymentImports } from '../../../db/schema';
import { type Actor, actorOfUser, SYSTEM_ACTOR, writeAudit } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { conflict } from '../../errors';
import { withTransaction } from '../../transaction';
import { findUserById } from '../users/service';
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
 *
 * The rows are split by contract into `PARTS` parts posted side by side, so the server computes
 * one chunk's allocation while the database writes another's (a chunk is half the server's work
 * and half the database's). A contract's rows are all in one part, posted in order there; two
 * parts never lock the same contract. One runner per part across instances (an advisory lock).
 */

/** Rows per transaction: large enough for bulk inserts, small enough for progress and short locks. */
export const CHUNK_ROWS = 2000;

/** Parts posted side by side: two keep both of a small machine's cores busy (more only queue). */
const PARTS = 2;

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

/** Imports being posted by this instance, so a second confirm (or the job) joins the run instead of racing it. */
const running = new Map<string, Promise<void>>();

/**
 * Starts (or joins) the posting of a confirmed import in the background of this instance. A run
 * that fails is logged and its promise rejects; the import stays `posting`, and the job
 * `payments.import-post` takes it up again (as it does one whose instance stopped mid-way).
 */
export function runImport(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const current = running.get(id);
  if (current) return current;
  const run = postAll(ctx, actor, id).finally(() => running.delete(id));
  running.set(id, run);
  run.catch((error: unknown) => {
    ctx.log.error(
      { err: error, importId: id },
      'posting a statement import stopped; the job payments.import-post takes it up again',
    );
  });
  return run;
}

/**
 * Every import left `posting` with no run of this instance under way (its instance stopped, or a
 * chunk failed) is posted on, as the person who confirmed it, oldest first; one under way here is
 * joined. Rows already posted are skipped, and two instances' runs of one import take its parts'
 * chunks in turn (the advisory lock per part), so nothing is posted twice.
 */
export async function resumeImports(ctx: AppContext): Promise<{ imports: number; posted: number }> {
  const waiting = await ctx.db
    .select({
      id: paymentImports.id,
      confirmedBy: paymentImports.confirmedBy,
      postedCount: paymentImports.postedCount,
    })
    .from(paymentImports)
    .where(eq(paymentImports.status, 'posting'))
    .orderBy(asc(paymentImports.confirmedAt), asc(paymentImports.id));
  let posted = 0;
  for (const imp of waiting) {
    const person = imp.confirmedBy ? await findUserById(ctx.db, imp.confirmedBy) : undefined;
    const actor = person ? actorOfUser(person) : SYSTEM_ACTOR;
    await runImport(ctx, actor, imp.id);
    const [after] = await ctx.db
      .select({ postedCount: paymentImports.postedCount })
      .from(paymentImports)
      .where(eq(paymentImports.id, imp.id));
    posted += (after?.postedCount ?? imp.postedCount) - imp.postedCount;
  }
  return { imports: waiting.length, posted };
}

/** The current minute while an import is `posting`, 'idle' otherwise: the job's key. */
export async function postingImportsKey(ctx: AppContext): Promise<string> {
  const rows = await ctx.db
    .select({ id: paymentImports.id })
    .from(paymentImports)
    .where(eq(paymentImports.status, 'posting'))
    .limit(1);
  return rows.length ? ctx.clock.now().toISOString().slice(0, 16) : 'idle';
}

async function postAll(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await Promise.all(Array.from({ length: PARTS }, (_, part) => postPart(ctx, actor, id, part)));
}

async function postPart(ctx: AppContext, actor: Actor, id: string, part: number): Promise<void> {
  for (;;) {
    const done = await withTransaction(ctx, (tx) => postChunk(tx, actor, id, part));
    if (done) return;
  }
}

/** The rows of one part: split by contract, so a contract's rows stay together and in order. */
const inPart = (part: number) =>
  sql`((hashtext(${paymentImportRows.contractId}) % ${PARTS}) + ${PARTS}) % ${PARTS} = ${part}`;

/** Posts the next chunk of a part's rows; true when the part has nothing left. */
async function postChunk(ctx: TxContext, actor: Actor, id: string, part: number): Promise<boolean> {
  // One runner per part, across instances: a second waits here, then finds the rows posted.
  await ctx.tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${id}), ${part})`);
  // A custom plan, knowing 2,000 values, hash-joined the whole contracts and figures tables
  // (100,000 rows each) to update 2,000 of them, every chunk; the generic plan probes each by key.
  await planGenerically(ctx.tx);
  const [imp] = await ctx.tx.select().from(paymentImports).where(eq(paymentImports.id, id));
  if (imp?.status !== 'posting') return true;
  const rows = await ctx.tx
    .select()
    .from(paymentImportRows)
    .where(
      and(
        eq(paymentImportRows.importId, id),
        isNull(paymentImportRows.error),
        isNull(paymentImportRows.paymentId),
        inPart(part),
      ),
    )
    .orderBy(asc(paymentImportRows.rowNumber))
    .limit(CHUNK_ROWS);
  if (!rows.length) {
    await markPostedWhenDone(ctx, id);
    return true;
  }
  const stored = storedMapping(imp.mapping);
  const result = await postImportChunk(ctx, actor, {
    importId: id,
    method: imp.method as Exclude<typeof imp.method, 'deposit'>,
    mapping: stored,
    rows,
  });
  // The import's row lock, last in the chunk's transaction (after its contracts' locks, which
  // the parts never share), so the parts' counts add up without a deadlock.
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

/** The import is `posted` once no part has a row left; the last part to finish sees it. */
async function markPostedWhenDone(ctx: TxContext, id: string): Promise<void> {
  const imp = await lockImport(ctx, id);
  if (imp.status !== 'posting') return;
  const [left] = await queryRows<{ left: boolean }>(
    ctx.tx,
    sql`SELECT EXISTS (SELECT 1 FROM ${paymentImportRows} WHERE import_id = ${id}
          AND error IS NULL AND payment_id IS NULL) AS left`,
  );
  if (!left?.left)
    await ctx.tx.update(paymentImports).set({ status: 'posted' }).where(eq(paymentImports.id, id));
}
