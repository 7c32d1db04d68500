/**
 * Lifecycles as data: for each entity with a status, the moves it can make, each from a set of
 * statuses to one status. The server's `transition()` (src/server/transitions.ts) refuses any
 * move the entity's table does not allow; the web reads the same tables to offer only the moves
 * that can succeed. A new lifecycle (payments, promises, commands) is one more table.
 */
export interface Move<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

export type TransitionTable<S extends string, M extends string = string> = Readonly<Record<M, Move<S>>>;

/** Whether `move` may start from `status`. */
export function canMove<S extends string, M extends string>(
  table: TransitionTable<S, M>,
  move: M,
  status: S,
): boolean {
  return table[move].from.includes(status);
}

/** The moves open to an entity in `status`, in the table's order. */
export function movesFrom<S extends string, M extends string>(table: TransitionTable<S, M>, status: S): M[] {
  return (Object.keys(table) as M[]).filter((move) => canMove(table, move, status));
}
