import { devices } from '../../../db/schema';
import { tablesChanged } from '../../cache';
import type { AppServices, Executor } from '../../context';

/**
 * Call in the transaction of any change to units (a token's count too: the list shows it): every
 * cache that shows units (theirs, and contracts', which show serials and search them) is evicted
 * here now and on every instance at commit (decision 010).
 */
export const deviceListsChanged = (ctx: AppServices, executor: Executor) =>
  tablesChanged(ctx, executor, devices);
