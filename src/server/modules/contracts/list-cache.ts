import { contractFigures, contracts } from '../../../db/schema';
import { rowsChanged, tablesChanged } from '../../cache';
import type { AppServices, Executor } from '../../context';

/**
 * Call in the transaction of any change to a contract (created, moved to another status, its
 * terms or parties changed): every cache that shows contracts (their list, decision 010) is
 * evicted here now and on every instance at commit, the lists' totals with their pages.
 */
export function contractsChanged(ctx: AppServices, executor: Executor): Promise<void> {
  return tablesChanged(ctx, executor, contracts, contractFigures);
}

/** Beyond this many contracts at once (an import's chunk) the figures are published as a whole. */
const ROWS_NAMED = 100;

/**
 * Call in the transaction of a change to these contracts' figures alone (a payment that moves no
 * status): their balances on the contract row (paid-through, outstanding principal, total paid,
 * credit) and their figures rows. `contract_figures` stands for both (decision 045): caches that
 * show any of them list it; the contracts list's pages that show none of these contracts, and
 * are not sorted or filtered by figures, stay, and so do its totals unless a filter reads figures.
 */
export function contractFiguresChanged(
  ctx: AppServices,
  executor: Executor,
  contractIds: readonly string[],
): Promise<void> {
  return contractIds.length > ROWS_NAMED
    ? tablesChanged(ctx, executor, contractFigures)
    : rowsChanged(ctx, executor, contractFigures, contractIds);
}
