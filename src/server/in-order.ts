/**
 * Awaits independent reads side by side (separate pool connections on PostgreSQL) and fails as
 * running them one after another would: with the first failure in the order given, so the same
 * bad input always gets the same message.
 */
export async function allInOrder<T extends readonly unknown[]>(
  promises: {
    [K in keyof T]: Promise<T[K]>;
  },
): Promise<T> {
  const settled = await Promise.allSettled(promises as readonly Promise<unknown>[]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
