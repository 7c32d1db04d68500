import { type SQL, sql } from 'drizzle-orm';
import { contractInstallments, contracts } from '../../../db/schema';
import { messageDateSql, messageMoneySql } from '../messages/values-sql';
import { TERM_DAYS } from './close-of-business';
import { dpdOn, figuresJoin, pastDueExactly } from './figures';
import { REMAINING } from './portfolio';

/**
 * The contracts' side of close of business step 6 (decision 027): which contracts are owed a
 * reminder on a date, as a query the messages area inserts from in one statement (no contract is
 * read out one at a time). Each row is (customer_id, contract_id, template_key, variables as
 * JSON, dedupe_key); the key names the contract, the kind and the business date, so a re-run of
 * the date queues nothing more. Step 1's figures for the date are read as stored, days past due
 * derived from the day arrears began (decision 054).
 */

export interface ReminderRules {
  /** The business date being closed. */
  date: string;
  /** Days before a due date that the "before due" reminder goes out. */
  leadDays: number;
  /** Days past due on which an overdue reminder goes out, each with its own template. */
  overdueDays: readonly number[];
  /** The currency's decimals, for amounts in words ("KES 1,250.00", as `messageMoney` writes). */
  digits: number;
  /** Device ids under device control (OpenPAYGO or a lock API): only they get a lock warning. */
  controlledDevices: SQL;
  /**
   * Every plan's lock-after days among the contracts (`termValues`): the lock warnings are read
   * from the arrears index at those days past due, not from every contract in arrears (434,000 probes
   * of their contracts at a million, 4.5 s).
   */
  lockAfterDays: readonly number[];
}

/** Every reminder the contracts owe on `rules.date`, as rows for the outbox's insert. */
export function reminderCandidates(rules: ReminderRules): SQL {
  const { date, leadDays, overdueDays, digits } = rules;
  const dueOn = sql`${date}::date + ${leadDays}::int`;
  const key = (kind: SQL) => sql`'reminder:' || ${kind} || ':' || c.id || ':' || ${date}::text`;
  // The stored arrears: step 1 brought them to the date, and step 2's late fees added to them.
  const overdueAmount = sql`f.overdue_total`;
  const dpd = dpdOn(date);
  return sql`
    SELECT c.customer_id, c.id, 'reminder_before_due',
           jsonb_build_object('contractNumber', c.number, 'dueDate', ${messageDateSql(dueOn)},
                              'amount', ${messageMoneySql(sql`due.amount`, sql`c.currency`, digits)}),
           ${key(sql`'reminder_before_due'`)}
    -- The instalments due on the day (their due-date index), each schedule's remaining dues summed:
    -- reading each candidate's schedule instead probed a whole daily schedule per contract.
    FROM (SELECT i.contract_id, i.schedule_version, sum(${REMAINING}) AS amount FROM ${contractInstallments} i
          WHERE i.due_date = ${dueOn} AND i.settled_at IS NULL
          GROUP BY i.contract_id, i.schedule_version) due
    JOIN ${contracts} c ON c.id = due.contract_id AND c.schedule_version = due.schedule_version ${figuresJoin()}
    -- Step 1 has just stored the next instalment due on or after the date: an unpaid one due in
    -- the lead days makes it fall between the two.
    WHERE due.amount > 0 AND c.status = 'active' AND f.next_due_date BETWEEN ${date}::date AND ${dueOn}
    UNION ALL
    SELECT c.customer_id, c.id, 'overdue_day_' || ${dpd},
           jsonb_build_object('contractNumber', c.number, 'daysOverdue', ${dpd},
                              'amountOverdue', ${messageMoneySql(overdueAmount, sql`c.currency`, digits)}),
           ${key(sql`'overdue_day_' || ${dpd}`)}
    FROM ${contracts} c ${figuresJoin()}
    WHERE c.status = 'active' AND ${pastDueExactly(date, overdueDays)}
    UNION ALL
    SELECT c.customer_id, c.id, 'lock_warning',
           jsonb_build_object('contractNumber', c.number, 'daysOverdue', ${dpd},
                              'amountOverdue', ${messageMoneySql(overdueAmount, sql`c.currency`, digits)}),
           ${key(sql`'lock_warning'`)}
    FROM ${contracts} c ${figuresJoin()}
    WHERE c.status IN ('active', 'defaulted') AND ${pastDueExactly(date, rules.lockAfterDays)}
      AND ${dpd} = ${TERM_DAYS.lockAfterDays} AND c.device_id IN (${rules.controlledDevices})`;
}
