import { contractFigures, contracts } from '../../../db/schema';
import { tablesChanged } from '../../cache';
import type { AppServices, Executor } from '../../context';

/**
 * Call in the transaction of any change to a contract (created, moved to another status, its
 * terms or parties changed): every cache that shows contracts (their list, decision 010) is
 * evicted here now and on every instance at commit, the lists' totals with their pages.
 */
export function contractsChanged(ctx: AppServices, executor: Executor): Promise<void> {
  return tablesChanged(ctx, executor, contracts, contractFigures);
}

/**
 * Call in the transaction of a change to a contract's figures alone (a payment that moves no
 * status): its balances on the contract row (paid-through, outstanding principal, total paid,
 * credit) and its figures row. `contract_figures` stands for both (decision 045): caches that
 * show any of them list it, and a list's totals stay unless a filter reads the figures.
 */
export function contractFiguresChanged(ctx: AppServices, executor: Executor): Promise<void> {
  return tablesChanged(ctx, executor, contractFigures);
}
