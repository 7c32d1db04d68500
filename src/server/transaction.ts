import { sql } from 'drizzle-orm';
import type { AppContext, AppServices, Executor, Tx, TxContext } from './context';

/**
 * Memory for the hash joins of a transaction's statements over the whole book (a close's late
 * fees and defaults matching the contracts they locked to every contract or figures row, the
 * queue's scoring of every contract), until it ends: at PostgreSQL's default 4 MB a
 * million-contract book was hashed in 16 to 64 batches on disk (decision 058). It is a limit, not
 * an allocation; only for such statements, as wider plans made the snapshot slower.
 */
export async function hashTheBookInMemory(ctx: TxContext): Promise<void> {
  await ctx.tx.execute(sql`SET LOCAL work_mem = '64MB'`);
}

/** The context minus its database handle, so nothing in the transaction can read around it. */
function withoutDb({ db: _db, ...services }: AppContext): AppServices {
  return services;
}

type CommitHook = (step: () => void) => void;

// The transactions `withTransaction` opened (and their savepoints), each with where its
// after-commit steps go. Keyed by the handle, so a step registered through any other executor
// (`ctx.db`, a transaction opened directly) is refused and its caller acts at once instead.
const commitHooks = new WeakMap<Tx, CommitHook>();

/**
 * Runs `step` once the transaction `executor` belongs to has committed, and answers true; answers
 * false, registering nothing, when `executor` is not a transaction opened by `withTransaction`
 * (or a savepoint in one). A rolled-back transaction runs none of its steps; a savepoint rolled
 * back inside a committed transaction still runs its own (they must be harmless to run then:
 * the invalidation bus's are an extra eviction).
 */
export function afterCommit(executor: Executor, step: () => void): boolean {
  const hook = commitHooks.get(executor as Tx);
  hook?.(step);
  return hook !== undefined;
}

/**
 * Runs `work` in one transaction and commits it if `work` succeeds: the route handler or job
 * that owns the transaction calls this and hands the bound context to the services it composes
 * (decision 011). If the transaction rolls back, what services registered with `onRollback`
 * (files written to storage, say) is undone, newest first, and the error is rethrown. Once it
 * commits, the steps registered with `afterCommit` run (the invalidation bus's: decision 024).
 */
export async function withTransaction<T>(ctx: AppContext, work: (ctx: TxContext) => Promise<T>): Promise<T> {
  const undo: (() => Promise<void>)[] = [];
  const committed: (() => void)[] = [];
  let result: T;
  try {
    result = await ctx.db.transaction((tx) => {
      commitHooks.set(tx, (step) => committed.push(step));
      return work({ ...withoutDb(ctx), tx, onRollback: (step) => undo.push(step) });
    });
  } catch (error) {
    for (const step of undo.reverse()) {
      await step().catch((failure: unknown) =>
        ctx.log.error({ err: failure }, 'undoing a rolled-back change failed'),
      );
    }
    throw error;
  }
  // The change is committed whatever a step does: a failing step is logged, never thrown.
  for (const step of committed) {
    try {
      step();
    } catch (failure) {
      ctx.log.error({ err: failure }, 'a step after commit failed');
    }
  }
  return result;
}

/**
 * Runs `work` under a savepoint of the caller's transaction, so that a service can catch an
 * expected failure of it (a concurrent duplicate's unique violation) and go on answering in
 * the same transaction. Not a transaction of its own: it commits only with the caller's, and
 * its after-commit steps wait for that commit.
 */
export function savepoint<T>(ctx: TxContext, work: (ctx: TxContext) => Promise<T>): Promise<T> {
  return ctx.tx.transaction((tx) => {
    const hook = commitHooks.get(ctx.tx);
    if (hook) commitHooks.set(tx, hook);
    return work({ ...ctx, tx });
  });
}
