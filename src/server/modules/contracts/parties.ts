import { eq, type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { contracts, customers, deviceModels, devices, servicePlans } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { fieldError } from '../../errors';
import { moveDeviceForContract } from '../devices/service';

/**
 * What the contracts module needs from the customers, devices and users areas, in one place.
 * (To be served by those modules' services as they grow; contracts never write their tables
 * anywhere else.)
 */
/**
 * The customer, the device with its model, and the plan version of a contract being quoted, in
 * one statement (every draft and preview reads them); any of them may be missing (null).
 */
export const partiesOfQuote = prepared('contract_quote_parties', (db) =>
  db
    .select({ customer: customers, device: devices, model: deviceModels, plan: servicePlans })
    .from(sql`(SELECT 1) AS one`)
    .leftJoin(customers, eq(customers.id, sql.placeholder('customerId')))
    .leftJoin(devices, eq(devices.id, sql.placeholder('deviceId')))
    .leftJoin(deviceModels, eq(deviceModels.id, devices.modelId))
    .leftJoin(servicePlans, eq(servicePlans.id, sql.placeholder('planId'))),
);

/**
 * A contract's customer as a payment names them: their name and the agent told of the payment
 * (the customer's assigned agent, else whoever made the contract), as a JSON array column read
 * beside the contract's row `c` (a payment's one read, decision 022).
 */
export function payingCustomerColumn(c: SQL): SQL {
  return payingCustomerOf(sql`${c}.customer_id`, sql`${c}.created_by`);
}

/** The same for a contract given by its customer and creator (a batch of payments' arrays). */
export function payingCustomerOf(customerId: SQL, createdBy: SQL): SQL {
  return sql`(SELECT json_build_array(cu.first_name || ' ' || cu.last_name, COALESCE(cu.assigned_agent_id, ${createdBy}))
    FROM ${customers} cu WHERE cu.id = ${customerId})`;
}

const customerById = prepared('contract_customer', (db) =>
  db
    .select()
    .from(customers)
    .where(eq(customers.id, sql.placeholder('id'))),
);

export async function customerOf(executor: Executor, id: string) {
  const [row] = await customerById(executor).execute({ id });
  if (!row) throw fieldError('customerId', 'No such customer');
  return row;
}

const deviceById = prepared('contract_device', (db) =>
  db
    .select({ device: devices, model: deviceModels })
    .from(devices)
    .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
    .where(eq(devices.id, sql.placeholder('id'))),
);

export async function deviceOf(executor: Executor, id: string) {
  const [row] = await deviceById(executor).execute({ id });
  if (!row) throw fieldError('deviceId', 'No such device');
  return row;
}

/** A draft contract holds its device: in stock -> reserved. */
export const reserveDevice = (
  ctx: TxContext,
  actor: Actor,
  deviceId: string,
  contractId: string,
  number: string,
) =>
  moveDeviceForContract(ctx, actor, {
    deviceId,
    contractId,
    move: 'reserve',
    reason: `Reserved for contract ${number}`,
  });

/** A cancelled draft lets its device go: reserved -> in stock. */
export const releaseDevice = (
  ctx: TxContext,
  actor: Actor,
  deviceId: string,
  contractId: string,
  number: string,
) =>
  moveDeviceForContract(ctx, actor, {
    deviceId,
    contractId,
    move: 'release',
    reason: `Contract ${number} cancelled`,
  });

/** Activation hands the device over: reserved -> assigned, unlocked, running until the first due date. */
export const assignDevice = (
  ctx: TxContext,
  actor: Actor,
  deviceId: string,
  contractId: string,
  number: string,
  activeUntil: string,
) =>
  moveDeviceForContract(ctx, actor, {
    deviceId,
    contractId,
    move: 'assign',
    reason: `Assigned to contract ${number}`,
    activeUntil,
  });

/** Each contract's agent (its customer's assigned agent, else whoever made it), for notices about many contracts. */
export async function agentsOfContracts(
  executor: Executor,
  contractIds: readonly string[],
): Promise<Map<string, string>> {
  if (!contractIds.length) return new Map();
  // One probe of each key per contract (decision 042): as a join of the id list, the planner read
  // both whole tables for an import chunk's 2,000 contracts.
  const rows = await queryRows<{ id: string; agent: string | null }>(
    executor,
    sql`SELECT v.id, a.agent FROM unnest(${sql.param([...contractIds])}::text[]) AS v(id)
      CROSS JOIN LATERAL (SELECT COALESCE(cu.assigned_agent_id, c.created_by) AS agent
        FROM ${contracts} c JOIN ${customers} cu ON cu.id = c.customer_id WHERE c.id = v.id) a`,
  );
  return new Map(rows.flatMap((row) => (row.agent ? [[row.id, row.agent] as [string, string]] : [])));
}
