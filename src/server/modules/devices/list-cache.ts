import { instanceCache } from '../../cache';
import type { AppContext, Executor } from '../../context';

const NAMESPACE = 'device_totals';

/** Totals of unit list filters, per instance; cleared on every change that can move a unit between filters. */
export const listTotals = (ctx: AppContext) => instanceCache<number>(ctx, NAMESPACE, 60_000);

/** Call in the transaction of any change to units or models (evicts here now, everywhere at commit). */
export const clearDeviceTotals = (ctx: AppContext, executor: Executor) =>
  ctx.bus.publish(executor, NAMESPACE, '*');

/** The same, as a column of the statement that makes the change (InvalidationBus.notification). */
export const deviceTotalsNotification = (ctx: AppContext) => ctx.bus.notification(NAMESPACE, '*');
