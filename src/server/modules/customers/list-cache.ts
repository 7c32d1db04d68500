import { instanceCache } from '../../cache';
import type { AppContext, Executor } from '../../context';

const NAMESPACE = 'customer_lists';

/**
 * The customers list is read far more often than customers change (every open list page, every
 * search box keystroke): answered pages (as the JSON bytes sent) and filter totals are kept per
 * instance, keyed by the whole query and whether PII is masked, and evicted on every instance
 * (NOTIFY) by any change of a customer, its KYC or its score (decision 001). The 10 s time-to-live
 * is a safety net only; pages are ~20 KB each, so at most 1,000 entries are kept.
 */
export const customerPageCache = (ctx: AppContext) =>
  instanceCache<Buffer>(ctx, 'customer_pages', 10_000, { maxEntries: 1_000, clearedBy: [NAMESPACE] });

export const customerTotalsCache = (ctx: AppContext) =>
  instanceCache<number>(ctx, 'customer_totals', 10_000, { clearedBy: [NAMESPACE] });

/** Call in the transaction of any change to customers (evicts here now, everywhere at commit). */
export function customerListsChanged(ctx: AppContext, executor: Executor): Promise<void> {
  return ctx.bus.publish(executor, NAMESPACE, '*');
}
