import { contracts } from '../../../db/schema';
import { tablesChanged } from '../../cache';
import type { AppServices, Executor } from '../../context';

/**
 * Call in the transaction of any change to a contract: every cache that shows contracts (their
 * list, decision 010) is evicted here now and on every instance at commit.
 */
export function contractsChanged(ctx: AppServices, executor: Executor): Promise<void> {
  return tablesChanged(ctx, executor, contracts);
}
