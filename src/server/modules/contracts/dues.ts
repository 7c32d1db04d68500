import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { contractInstallments, contracts } from '../../../db/schema';
import type { Executor } from '../../context';
import { LIVE_STATUSES } from './portfolio';

/** What is still owed on a live contract's instalment due on or before a date. */
export interface UnpaidDue {
  contractId: string;
  contractNumber: string;
  currency: string;
  dueDate: string;
  /** Due less paid, every component (penalty, fee, interest, principal). */
  amount: number;
}

/** What is unpaid of an instalment `i`, every component. */
const unpaidOf = sql`(i.principal_due + i.interest_due + i.fee_due + i.penalty_due
  - i.principal_paid - i.interest_paid - i.fee_paid - i.penalty_paid)`;

/**
 * The unsettled instalments of the current schedule due on or before `date` on the live ones of
 * `contractIds` (oldest first per contract): what a collection such as auto-debit asks for. One
 * statement whatever the number of contracts.
 */
export async function unpaidDues(
  executor: Executor,
  contractIds: readonly string[],
  date: string,
): Promise<UnpaidDue[]> {
  if (!contractIds.length) return [];
  const rows = await queryRows<{
    contract_id: string;
    number: string;
    currency: string;
    due_date: string;
    amount: string | number;
  }>(
    executor,
    sql`SELECT c.id AS contract_id, c.number, c.currency, i.due_date::text AS due_date,
          sum(${unpaidOf}) AS amount
        FROM ${contracts} c
        JOIN ${contractInstallments} i
          ON i.contract_id = c.id AND i.schedule_version = c.schedule_version AND i.settled_at IS NULL
        WHERE c.id IN ${[...contractIds]} AND c.status IN ${[...LIVE_STATUSES]} AND i.due_date <= ${date}::date
        GROUP BY c.id, c.number, c.currency, i.due_date
        HAVING sum(${unpaidOf}) > 0
        ORDER BY c.id, i.due_date`,
  );
  return rows.map((row) => ({
    contractId: row.contract_id,
    contractNumber: row.number,
    currency: row.currency,
    dueDate: row.due_date,
    amount: Number(row.amount),
  }));
}

/**
 * For `CROSS JOIN LATERAL` after a contract `c`: its current schedule's oldest due date with
 * something unpaid that `keep` keeps (it is given the due date's column, to leave out the dates a
 * caller has dealt with), and what is unpaid of the instalments due that day, as one row of
 * (due_date, amount). What a collection such as auto-debit will ask for next.
 */
export function nextUnpaidDue(keep: (dueDate: SQL) => SQL): SQL {
  return sql`SELECT i.due_date, sum(${unpaidOf}) AS amount FROM ${contractInstallments} i
    WHERE i.contract_id = c.id AND i.schedule_version = c.schedule_version AND i.settled_at IS NULL
      AND ${keep(sql`i.due_date`)}
    GROUP BY i.due_date HAVING sum(${unpaidOf}) > 0
    ORDER BY i.due_date LIMIT 1`;
}
