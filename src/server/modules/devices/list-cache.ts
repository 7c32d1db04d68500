import { instanceCache } from '../../cache';
import type { AppContext, Executor } from '../../context';

const NAMESPACE = 'device_lists';

/** Totals of unit list filters, per instance: counting 100,000 units would cost more than the page. */
export const deviceTotalsCache = (ctx: AppContext) =>
  instanceCache<number>(ctx, 'device_totals', 60_000, { clearedBy: [NAMESPACE] });

/**
 * Answered unit pages, as the JSON bytes sent (about 22 KB each, so at most 1,000 kept): the
 * stock list is read far more often than units change (decision 005).
 */
export const devicePageCache = (ctx: AppContext) =>
  instanceCache<Buffer>(ctx, 'device_pages', 10_000, { maxEntries: 1_000, clearedBy: [NAMESPACE] });

/**
 * Call in the transaction of any change to what a unit row shows: units, their models, token
 * counts (evicts here now, everywhere at commit). Contract pages, which show serials, follow too.
 */
export const deviceListsChanged = (ctx: AppContext, executor: Executor) =>
  ctx.bus.publish(executor, NAMESPACE, '*');

/** The same, as a column of the statement that makes the change (InvalidationBus.notification). */
export const deviceListsNotification = (ctx: AppContext) => ctx.bus.notification(NAMESPACE, '*');
