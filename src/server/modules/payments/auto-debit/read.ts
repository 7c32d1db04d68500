import { type SQL, sql } from 'drizzle-orm';
import type { DebitAttempt, Mandate, NextDebit } from '../../../../contracts/auto-debit';
import { queryRows } from '../../../../db/client';
import { contracts, customers, debitAttempts, debitMandates, users } from '../../../../db/schema';
import type { Executor } from '../../../context';
import { notFound } from '../../../errors';
import { nextUnpaidDue } from '../../contracts/dues';
import { LIVE_STATUSES } from '../../contracts/portfolio';

/**
 * Mandates and attempts as staff read them, with the contract number and the customer's name in
 * one statement (the monitor, its lists and the contract page's card read the same columns).
 */

/** The customer `cu`'s name, as every auto-debit read shows it. */
const customerName = sql`cu.first_name || ' ' || cu.last_name AS customer_name`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const mandateColumns = sql`debit_mandates.id, debit_mandates.contract_id, c.number AS contract_number, c.customer_id,
  ${customerName}, debit_mandates.method, debit_mandates.account,
  debit_mandates.consent_reference, debit_mandates.active, debit_mandates.paused_reason,
  u.first_name || ' ' || u.last_name AS created_by_name, debit_mandates.created_at, debit_mandates.updated_at`;

/** The main table keeps its name (the lists' conditions name its columns); the parties are aliased. */
export const mandateFrom = sql`${debitMandates}
  JOIN ${contracts} c ON c.id = debit_mandates.contract_id
  JOIN ${customers} cu ON cu.id = c.customer_id
  LEFT JOIN ${users} u ON u.id = debit_mandates.created_by`;

interface MandateRow {
  id: string;
  contract_id: string;
  contract_number: string;
  customer_id: string;
  customer_name: string;
  method: Mandate['method'];
  account: string;
  consent_reference: string;
  active: boolean;
  paused_reason: string | null;
  created_by_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

function toMandate(row: MandateRow): Mandate {
  return {
    id: row.id,
    contractId: row.contract_id,
    contractNumber: row.contract_number,
    customerId: row.customer_id,
    customerName: row.customer_name,
    method: row.method,
    account: row.account,
    consentReference: row.consent_reference,
    active: row.active,
    pausedReason: row.paused_reason,
    createdByName: row.created_by_name,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function selectMandates(
  executor: Executor,
  where: SQL | undefined,
  orderBy: SQL = sql`debit_mandates.created_at DESC, debit_mandates.id DESC`,
  limit = 200,
  offset = 0,
): Promise<Mandate[]> {
  const rows = await queryRows<MandateRow>(
    executor,
    sql`SELECT ${mandateColumns} FROM ${mandateFrom}
        ${where ? sql`WHERE ${where}` : sql``}
        ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map(toMandate);
}

export async function mandateById(executor: Executor, id: string): Promise<Mandate> {
  const [mandate] = await selectMandates(executor, sql`debit_mandates.id = ${id}`, undefined, 1);
  if (!mandate) throw notFound('Mandate not found');
  return mandate;
}

/** The scheduled date is kept as UTC midnight of the business date (decision 021). */
const attemptColumns = sql`debit_attempts.id, debit_attempts.mandate_id, debit_attempts.contract_id,
  c.number AS contract_number, ${customerName}, m.method,
  debit_attempts.due_date::text AS due_date, debit_attempts.amount, c.currency, debit_attempts.attempt,
  debit_attempts.status, (debit_attempts.scheduled_for AT TIME ZONE 'UTC')::date::text AS scheduled_for,
  debit_attempts.attempted_at, debit_attempts.failure_reason, debit_attempts.provider_reference,
  debit_attempts.payment_id, nx.status AS retry_status,
  (nx.scheduled_for AT TIME ZONE 'UTC')::date::text AS retry_scheduled_for`;

/** `nx`: a failed attempt's retry (the same instalment's next attempt, unique by its key), if any. */
export const attemptFrom = sql`${debitAttempts}
  JOIN ${debitMandates} m ON m.id = debit_attempts.mandate_id
  JOIN ${contracts} c ON c.id = debit_attempts.contract_id
  JOIN ${customers} cu ON cu.id = c.customer_id
  LEFT JOIN ${debitAttempts} nx ON debit_attempts.status = 'retrying'
    AND nx.mandate_id = debit_attempts.mandate_id AND nx.due_date = debit_attempts.due_date
    AND nx.attempt = debit_attempts.attempt + 1`;

/** The columns of an attempt that name what it debits: a next debit is read as these alone. */
interface DebitRow {
  mandate_id: string;
  contract_id: string;
  contract_number: string;
  customer_name: string;
  method: DebitAttempt['method'];
  due_date: string;
  amount: string | number;
  currency: string;
}

function toDebit(row: DebitRow): NextDebit {
  return {
    mandateId: row.mandate_id,
    contractId: row.contract_id,
    contractNumber: row.contract_number,
    customerName: row.customer_name,
    method: row.method,
    dueDate: row.due_date,
    amount: Number(row.amount),
    currency: row.currency,
  };
}

interface AttemptRow extends DebitRow {
  id: string;
  attempt: number;
  status: DebitAttempt['status'];
  scheduled_for: string;
  attempted_at: Date | string | null;
  failure_reason: string | null;
  provider_reference: string | null;
  payment_id: string | null;
  retry_status: DebitAttempt['status'] | null;
  retry_scheduled_for: string | null;
}

function toAttempt(row: AttemptRow): DebitAttempt {
  return {
    id: row.id,
    ...toDebit(row),
    attempt: Number(row.attempt),
    status: row.status,
    scheduledFor: row.scheduled_for,
    attemptedAt: iso(row.attempted_at),
    failureReason: row.failure_reason,
    providerReference: row.provider_reference,
    paymentId: row.payment_id,
    retry:
      row.retry_status && row.retry_scheduled_for
        ? { status: row.retry_status, scheduledFor: row.retry_scheduled_for }
        : null,
  };
}

export async function selectAttempts(
  executor: Executor,
  where: SQL | undefined,
  orderBy: SQL = sql`debit_attempts.scheduled_for DESC, debit_attempts.id DESC`,
  limit = 200,
  offset = 0,
): Promise<DebitAttempt[]> {
  const rows = await queryRows<AttemptRow>(
    executor,
    sql`SELECT ${attemptColumns} FROM ${attemptFrom}
        ${where ? sql`WHERE ${where}` : sql``}
        ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map(toAttempt);
}

/**
 * The mandate each contract is debited through: its first active one (a contract may hold several,
 * one per method), as rows of (id, contract_id, method). The job's attempts and the monitor's next
 * debits read the same one.
 */
export const debitingMandates = sql`SELECT DISTINCT ON (contract_id) id, contract_id, method FROM ${debitMandates}
  WHERE active ORDER BY contract_id, created_at, id`;

/**
 * Each debiting mandate's oldest unpaid instalment of a live contract that has no attempt yet,
 * soonest first: the attempts the hourly job will make next (one due by the business date at its
 * next run, a later one on its due date).
 */
export async function selectNextDebits(
  executor: Executor,
  { contractId, limit = 20 }: { contractId?: string; limit?: number } = {},
): Promise<NextDebit[]> {
  const rows = await queryRows<DebitRow>(
    executor,
    sql`SELECT m.id AS mandate_id, c.id AS contract_id, c.number AS contract_number,
               ${customerName}, m.method,
               n.due_date::text AS due_date, n.amount, c.currency
        FROM (${debitingMandates}) m
        JOIN ${contracts} c ON c.id = m.contract_id AND c.status IN ${[...LIVE_STATUSES]}
          ${contractId ? sql`AND c.id = ${contractId}` : sql``}
        JOIN ${customers} cu ON cu.id = c.customer_id
        CROSS JOIN LATERAL (${nextUnpaidDue(
          // As the job picks them: no attempt on the contract for that due date, whichever mandate
          // (one due by the business date, the job's next run attempts; a later one, its due date).
          (dueDate) =>
            sql`NOT EXISTS (SELECT 1 FROM ${debitAttempts} a WHERE a.contract_id = c.id AND a.due_date = ${dueDate})`,
        )}) n
        ORDER BY n.due_date, c.number LIMIT ${limit}`,
  );
  return rows.map(toDebit);
}
