import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { journalEntries, journalLines } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { Executor } from '../../context';
import { postMany } from './bulk';

export interface IncomeSettlement {
  businessDate: string;
  currency: string;
  /** The income account payments credit when they pay the component (4300, 4100). */
  income: string;
  /** The receivable the close of business charged or accrued it to (1130, 1110). */
  receivable: string;
  /** The entries that recognised the income already (the charge, the accrual): not settled. */
  recognisedBy: readonly string[];
  /** This settlement's own source type. */
  sourceType: string;
  description: string;
  /** The contracts it applies to (a query of contract ids); every contract when absent. */
  contracts?: SQL;
}

/**
 * Income recognised when charged or accrued is settled, not earned again, when paid (decision
 * 026). Payments credit the income account for what they pay of a penalty or interest (their rule
 * since decision 022); the close of business moves each contract's amount of those credits, up to
 * and including the date, that it has not moved yet, from the income account to the receivable
 * (a reversal's debit moves back), one entry per contract. Sum-based, so a
 * payment posted after its date was closed is settled at the next close. Answers the net amount.
 */
export async function settleIncome(executor: Executor, actor: Actor, s: IncomeSettlement): Promise<number> {
  const scope = s.contracts ? sql`AND l.contract_id IN (${s.contracts})` : sql``;
  const rows = await queryRows<{ contractId: string; customerId: string | null; amount: string }>(
    executor,
    sql`
    SELECT l.contract_id AS "contractId", max(l.customer_id) AS "customerId",
           sum(l.credit - l.debit)::text AS amount
    FROM ${journalLines} l JOIN ${journalEntries} e ON e.id = l.entry_id
    -- Payments' credits less their reversals, less what earlier settlements (this source) moved.
    WHERE l.account_code = ${s.income} AND l.contract_id IS NOT NULL AND e.business_date <= ${s.businessDate}::date
      AND e.source_type NOT IN ${[...s.recognisedBy]} ${scope}
    GROUP BY l.contract_id
    HAVING sum(l.credit - l.debit) <> 0`,
  );
  // One entry per contract, as every posting: the balance check at commit sums its entry's lines.
  await postMany(
    executor,
    actor,
    rows.map((row) => {
      const amount = Number(row.amount);
      const [debit, credit] = amount > 0 ? [amount, 0] : [0, -amount];
      const party = { contractId: row.contractId, customerId: row.customerId };
      return {
        businessDate: s.businessDate,
        description: s.description,
        sourceType: s.sourceType,
        sourceId: row.contractId,
        currency: s.currency,
        lines: [
          { account: s.income, debit, credit, ...party },
          { account: s.receivable, debit: credit, credit: debit, ...party },
        ],
      };
    }),
  );
  return rows.reduce((total, row) => total + Number(row.amount), 0);
}
