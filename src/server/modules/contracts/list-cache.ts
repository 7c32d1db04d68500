import { instanceCache } from '../../cache';
import type { AppContext, Executor } from '../../context';

const TOTALS_NAMESPACE = 'contract_totals';
/** Customers' and devices' changes: a row shows their names and serials, and a search matches them. */
const SHOWN_FROM = ['customer_lists', 'device_lists'];

/**
 * Totals of list filters, per instance: counting 100,000 contracts for every page would cost more
 * than the page. Evicted on every instance by any change of a contract (contractsChanged), and of
 * the customers and devices a search matches.
 */
export const contractTotalsCache = (ctx: AppContext) =>
  instanceCache<number>(ctx, TOTALS_NAMESPACE, 60_000, { clearedBy: SHOWN_FROM });

/**
 * Answered pages, as the JSON bytes sent (about 30 KB each, so at most 1,000 kept): a list many
 * people keep open costs neither a query nor a serialisation until something on it changes.
 */
export const contractPageCache = (ctx: AppContext) =>
  instanceCache<Buffer>(ctx, 'contract_pages', 10_000, {
    maxEntries: 1_000,
    clearedBy: [TOTALS_NAMESPACE, ...SHOWN_FROM],
  });

/** Call in the transaction of any change to a contract (evicts here now, everywhere at commit). */
export function contractsChanged(ctx: AppContext, executor: Executor): Promise<void> {
  return ctx.bus.publish(executor, TOTALS_NAMESPACE, '*');
}

/** The same, as a column of the statement that makes the change (InvalidationBus.notification). */
export const contractsChangedNotification = (ctx: AppContext) => ctx.bus.notification(TOTALS_NAMESPACE, '*');
