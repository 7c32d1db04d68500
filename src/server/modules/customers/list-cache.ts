import { customers } from '../../../db/schema';
import { tablesChanged } from '../../cache';
import type { AppServices, Executor } from '../../context';

/**
 * Call in the transaction of any change to customers (a row, its KYC, its score): every cache
 * that shows customers (theirs, and contracts', which show names and search them) is evicted here
 * now and on every instance at commit (decision 010).
 */
export function customerListsChanged(ctx: AppServices, executor: Executor): Promise<void> {
  return tablesChanged(ctx, executor, customers);
}
