import { and, eq, inArray, sql } from 'drizzle-orm';
import { contracts, customers, devices } from '../../../db/schema';
import type { Executor } from '../../context';
import { normalisePhone } from '../customers/phone';
import { LIVE_STATUSES } from './portfolio';

/**
 * Which contract an account reference a payer typed names (a mobile-money BillRefNumber, a
 * statement's reference): the contracts area answers for its parties (decision 020). Tried in
 * order, each case- and space-insensitive:
 * 1. a contract number ("CT-000123", also "ct 000123" or "CT000123");
 * 2. a device serial number: that unit's live contract;
 * 3. a customer's phone (E.164; a number without + is read in the organisation's country) or
 *    account number: that customer's live contract, when they have exactly one.
 * Only a live contract (active or defaulted) takes payments; anything else is unmatched, with why.
 */
export type ReferenceMatch =
  | { contractId: string; contractNumber: string; matchedBy: 'contract' | 'serial' | 'phone' | 'account' }
  | { contractId: null; reason: string };

const LIVE: readonly string[] = LIVE_STATUSES;

/** Upper case, no spaces: how references are compared. */
export function normaliseReference(reference: string): string {
  return reference.replace(/\s+/g, '').toUpperCase();
}

export async function findContractForReference(
  executor: Executor,
  reference: string | null | undefined,
  country: string,
): Promise<ReferenceMatch> {
  const ref = normaliseReference(reference ?? '');
  if (!ref) return { contractId: null, reason: 'no account reference' };

  // 1. Contract number (stored upper case, "CT-000123"); a reference without the dash also matches.
  const numbers = [ref];
  const bare = /^([A-Z]+)(\d+)$/.exec(ref);
  if (bare) numbers.push(`${bare[1]}-${bare[2]}`);
  const byNumber = await executor
    .select({ id: contracts.id, number: contracts.number, status: contracts.status })
    .from(contracts)
    .where(inArray(contracts.number, numbers))
    .limit(1);
  const contract = byNumber[0];
  if (contract) {
    return LIVE.includes(contract.status)
      ? { contractId: contract.id, contractNumber: contract.number, matchedBy: 'contract' }
      : { contractId: null, reason: `${contract.number} is ${contract.status.replace('_', ' ')}` };
  }

  // 2. Device serial: exactly as stored first (the unique index), then ignoring case and spaces.
  let unit = await executor
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices.serialNumber, reference?.trim() ?? ''))
    .limit(2);
  if (!unit.length) {
    unit = await executor
      .select({ id: devices.id })
      .from(devices)
      .where(sql`upper(replace(${devices.serialNumber}, ' ', '')) = ${ref}`)
      .limit(2);
  }
  if (unit.length === 1 && unit[0]) {
    const live = await liveContracts(executor, eq(contracts.deviceId, unit[0].id));
    return oneOf(live, 'serial', 'the device has no live contract');
  }

  // 3. The customer: by phone, then by account number.
  let customerId: string | undefined;
  let matchedBy: 'phone' | 'account' = 'phone';
  if (/^\+?[\d().-]{6,}$/.test(ref)) {
    let phone: string | null = null;
    try {
      phone = normalisePhone(ref, country);
    } catch {
      phone = null;
    }
    if (phone) {
      const [row] = await executor
        .select({ id: customers.id })
        .from(customers)
        .where(eq(customers.phone, phone))
        .limit(1);
      customerId = row?.id;
    }
  }
  if (!customerId) {
    const [row] = await executor
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.accountNumber, ref))
      .limit(1);
    customerId = row?.id;
    matchedBy = 'account';
  }
  if (customerId) {
    const live = await liveContracts(executor, eq(contracts.customerId, customerId));
    return oneOf(
      live,
      matchedBy,
      live.length ? 'the customer has several live contracts' : 'the customer has no live contract',
    );
  }
  return { contractId: null, reason: 'no contract, device or customer has this reference' };
}

async function liveContracts(executor: Executor, where: ReturnType<typeof eq>) {
  return executor
    .select({ id: contracts.id, number: contracts.number })
    .from(contracts)
    .where(and(where, inArray(contracts.status, [...LIVE_STATUSES])))
    .limit(2);
}

function oneOf(
  live: { id: string; number: string }[],
  matchedBy: 'serial' | 'phone' | 'account',
  otherwise: string,
): ReferenceMatch {
  const [only] = live;
  return live.length === 1 && only
    ? { contractId: only.id, contractNumber: only.number, matchedBy }
    : { contractId: null, reason: otherwise };
}

/** What an STK push needs of a contract: its number, status, currency and the customer's phone. */
export interface PushTarget {
  id: string;
  number: string;
  status: string;
  live: boolean;
  currency: string;
  customerPhone: string;
}

export async function pushTarget(executor: Executor, contractId: string): Promise<PushTarget | undefined> {
  const [row] = await executor
    .select({
      id: contracts.id,
      number: contracts.number,
      status: contracts.status,
      currency: contracts.currency,
      customerPhone: customers.phone,
    })
    .from(contracts)
    .innerJoin(customers, eq(customers.id, contracts.customerId))
    .where(eq(contracts.id, contractId));
  return row ? { ...row, live: LIVE.includes(row.status) } : undefined;
}
