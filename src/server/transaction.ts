import type { AppContext, AppServices, TxContext } from './context';

/** The context minus its database handle, so nothing in the transaction can read around it. */
function withoutDb({ db: _db, ...services }: AppContext): AppServices {
  return services;
}

/**
 * Runs `work` in one transaction and commits it if `work` succeeds: the route handler or job
 * that owns the transaction calls this and hands the bound context to the services it composes
 * (decision 011). If the transaction rolls back, what services registered with `onRollback`
 * (files written to storage, say) is undone, newest first, and the error is rethrown.
 */
export async function withTransaction<T>(ctx: AppContext, work: (ctx: TxContext) => Promise<T>): Promise<T> {
  const undo: (() => Promise<void>)[] = [];
  try {
    return await ctx.db.transaction((tx) =>
      work({ ...withoutDb(ctx), tx, onRollback: (step) => undo.push(step) }),
    );
  } catch (error) {
    for (const step of undo.reverse()) {
      await step().catch((failure: unknown) =>
        ctx.log.error({ err: failure }, 'undoing a rolled-back change failed'),
      );
    }
    throw error;
  }
}

/**
 * Runs `work` under a savepoint of the caller's transaction, so that a service can catch an
 * expected failure of it (a concurrent duplicate's unique violation) and go on answering in
 * the same transaction. Not a transaction of its own: it commits only with the caller's.
 */
export function savepoint<T>(ctx: TxContext, work: (ctx: TxContext) => Promise<T>): Promise<T> {
  return ctx.tx.transaction((tx) => work({ ...ctx, tx }));
}
