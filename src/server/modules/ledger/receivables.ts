import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { journalLines } from '../../../db/schema';
import type { Executor } from '../../context';
import { ACCOUNTS } from './service';

/** A contract's receivables on the books, by component (debits less credits of its lines). */
export interface BookReceivables {
  principal: number;
  interest: number;
  fees: number;
  penalties: number;
}

export const RECEIVABLE_ACCOUNTS: Record<keyof BookReceivables, string> = {
  principal: ACCOUNTS.loansReceivable,
  interest: ACCOUNTS.interestReceivable,
  fees: ACCOUNTS.feesReceivable,
  penalties: ACCOUNTS.penaltiesReceivable,
};

/**
 * What the ledger holds as owed on one contract, per receivable account. Only what was booked can
 * be written off: interest earned when paid (cash basis) and fees are income when paid, so their
 * unpaid schedule is not on the books; principal, accrued interest and charged penalties are.
 */
export async function contractReceivables(executor: Executor, contractId: string): Promise<BookReceivables> {
  const codes = Object.values(RECEIVABLE_ACCOUNTS);
  const rows = await queryRows<{ account_code: string; balance: string }>(
    executor,
    sql`SELECT account_code, sum(debit - credit) AS balance FROM ${journalLines}
        WHERE contract_id = ${contractId} AND account_code IN ${codes} GROUP BY account_code`,
  );
  const of = (code: string) =>
    Math.max(0, Number(rows.find((row) => row.account_code === code)?.balance ?? 0));
  return {
    principal: of(RECEIVABLE_ACCOUNTS.principal),
    interest: of(RECEIVABLE_ACCOUNTS.interest),
    fees: of(RECEIVABLE_ACCOUNTS.fees),
    penalties: of(RECEIVABLE_ACCOUNTS.penalties),
  };
}
