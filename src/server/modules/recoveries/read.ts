import { type SQL, sql } from 'drizzle-orm';
import type { Components, Repossession, WriteOff } from '../../../contracts/recoveries';
import { queryRows } from '../../../db/client';
import { repossessions, writeOffRequests } from '../../../db/schema';
import type { Executor } from '../../context';

// The contract, customer, device and staff names beside a request are read in the same statement
// (listed as a read across areas in boundaries.test.ts, like the payment corrections queue).
const person = (column: SQL) =>
  sql`(SELECT json_build_object('id', u.id, 'name', u.first_name || ' ' || u.last_name) FROM users u WHERE u.id = ${column})`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
type Person = { id: string; name: string } | null;

interface RepossessionRecord {
  id: string;
  status: Repossession['status'];
  contract_id: string;
  contract_number: string;
  contract_status: string;
  customer_id: string;
  customer_name: string;
  device_id: string;
  device_serial: string;
  currency: string;
  reason: string;
  outstanding_at_request: Components;
  requested_by: Person;
  requested_at: Date | string;
  decided_by: Person;
  decided_at: Date | string | null;
  decision_note: string | null;
  recovered_by: Person;
  recovered_at: Date | string | null;
  condition: Repossession['condition'];
  condition_notes: string | null;
  recovery_value: string | number | null;
  balance_treatment: Repossession['balanceTreatment'];
  written_off: Components | null;
}

/** Repossessions as the API shows them, newest request first. */
export async function selectRepossessions(
  executor: Executor,
  where: SQL | undefined,
  limit: number,
  offset = 0,
): Promise<Repossession[]> {
  const rows = await queryRows<RepossessionRecord>(
    executor,
    sql`SELECT r.id, r.status, r.contract_id, c.number AS contract_number, c.status AS contract_status,
          c.customer_id, cu.first_name || ' ' || cu.last_name AS customer_name, r.device_id,
          d.serial_number AS device_serial, c.currency, r.reason, r.outstanding_at_request,
          ${person(sql`r.requested_by`)} AS requested_by, r.requested_at,
          ${person(sql`r.decided_by`)} AS decided_by, r.decided_at, r.decision_note,
          ${person(sql`r.recovered_by`)} AS recovered_by, r.recovered_at,
          r.condition, r.condition_notes, r.recovery_value, r.balance_treatment, r.written_off
        FROM ${repossessions} r
        JOIN contracts c ON c.id = r.contract_id
        JOIN customers cu ON cu.id = c.customer_id
        JOIN devices d ON d.id = r.device_id
        ${where ? sql`WHERE ${where}` : sql``}
        ORDER BY r.requested_at DESC, r.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    contractId: r.contract_id,
    contractNumber: r.contract_number,
    contractStatus: r.contract_status,
    customerId: r.customer_id,
    customerName: r.customer_name,
    deviceId: r.device_id,
    deviceSerial: r.device_serial,
    currency: r.currency,
    reason: r.reason,
    outstandingAtRequest: r.outstanding_at_request,
    requestedBy: r.requested_by,
    requestedAt: new Date(r.requested_at).toISOString(),
    decidedBy: r.decided_by,
    decidedAt: iso(r.decided_at),
    decisionNote: r.decision_note,
    recoveredBy: r.recovered_by,
    recoveredAt: iso(r.recovered_at),
    condition: r.condition,
    conditionNotes: r.condition_notes,
    recoveryValue: r.recovery_value === null ? null : Number(r.recovery_value),
    balanceTreatment: r.balance_treatment,
    writtenOff: r.written_off,
  }));
}

export async function countRepossessions(executor: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM ${repossessions} r ${where ? sql`WHERE ${where}` : sql``}`,
  );
  return row?.n ?? 0;
}

interface WriteOffRecord {
  id: string;
  status: WriteOff['status'];
  contract_id: string;
  contract_number: string;
  contract_status: string;
  customer_id: string;
  customer_name: string;
  currency: string;
  reason: string;
  outstanding: Components;
  written_off: Components | null;
  requested_by: Person;
  requested_at: Date | string;
  decided_by: Person;
  decided_at: Date | string | null;
  decision_note: string | null;
}

/** Write-off requests as the API shows them, newest request first. */
export async function selectWriteOffs(
  executor: Executor,
  where: SQL | undefined,
  limit: number,
  offset = 0,
): Promise<WriteOff[]> {
  const rows = await queryRows<WriteOffRecord>(
    executor,
    sql`SELECT w.id, w.status, w.contract_id, c.number AS contract_number, c.status AS contract_status,
          c.customer_id, cu.first_name || ' ' || cu.last_name AS customer_name, c.currency, w.reason,
          w.outstanding, w.written_off,
          ${person(sql`w.requested_by`)} AS requested_by, w.requested_at,
          ${person(sql`w.decided_by`)} AS decided_by, w.decided_at, w.decision_note
        FROM ${writeOffRequests} w
        JOIN contracts c ON c.id = w.contract_id
        JOIN customers cu ON cu.id = c.customer_id
        ${where ? sql`WHERE ${where}` : sql``}
        ORDER BY w.requested_at DESC, w.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    contractId: r.contract_id,
    contractNumber: r.contract_number,
    contractStatus: r.contract_status,
    customerId: r.customer_id,
    customerName: r.customer_name,
    currency: r.currency,
    reason: r.reason,
    outstanding: r.outstanding,
    writtenOff: r.written_off,
    requestedBy: r.requested_by,
    requestedAt: new Date(r.requested_at).toISOString(),
    decidedBy: r.decided_by,
    decidedAt: iso(r.decided_at),
    decisionNote: r.decision_note,
  }));
}

export async function countWriteOffs(executor: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM ${writeOffRequests} w ${where ? sql`WHERE ${where}` : sql``}`,
  );
  return row?.n ?? 0;
}
