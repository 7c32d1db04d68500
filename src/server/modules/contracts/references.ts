import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { contracts, customers, devices } from '../../../db/schema';
import type { Executor } from '../../context';
import { normalisePhone } from '../customers/phone';
import { LIVE_STATUSES } from './portfolio';

/**
 * Which contract a reference a payer typed names: a statement line's contract column (its key is
 * the import's mapping) or a mobile-money BillRefNumber (every key, in `REFERENCE_ORDER`). One set
 * of rules for both, each case- and space-insensitive (decision 020):
 * - a contract number ("CT-000123", also "ct 000123" or "CT000123");
 * - a device serial number (as stored, then ignoring case and spaces): the unit's contracts;
 * - a customer's phone (E.164; a number without + is read in the organisation's country) or
 *   account number ("C-000123", also "C000123"): the customer's contracts.
 * Only a live contract (active or defaulted) takes payments, and only when the reference names
 * exactly one (`liveContractOf`).
 */
export type ReferenceKey = 'contract_number' | 'device_serial' | 'phone' | 'account_number';

/** The order a free-text reference is tried in: the first key that names any contract decides. */
export const REFERENCE_ORDER: readonly ReferenceKey[] = [
  'contract_number',
  'device_serial',
  'phone',
  'account_number',
];

/** A contract as a reference names it: enough to check and post a payment. */
export interface ContractByReference {
  id: string;
  number: string;
  status: string;
  currency: string;
  activatedAt: Date | null;
  createdAt: Date;
}

const LIVE: readonly string[] = LIVE_STATUSES;
const BATCH = 5000;

/** Upper case, no spaces: how references are compared. */
export function normaliseReference(reference: string): string {
  return reference.replace(/\s+/g, '').toUpperCase();
}

/** The stored forms a typed value may stand for under a key (none: it cannot name anything). */
function formsOf(key: ReferenceKey, value: string, country: string): string[] {
  const ref = normaliseReference(value);
  if (!ref) return [];
  if (key === 'device_serial') return [value.trim()];
  if (key === 'phone') {
    if (!/^\+?[\d().-]{6,}$/.test(ref)) return [];
    try {
      return [normalisePhone(ref, country)];
    } catch {
      return [];
    }
  }
  // Numbers are stored upper case with a dash ("CT-000123", "C-000123"); payers often drop it.
  const bare = /^([A-Z]+)(\d+)$/.exec(ref);
  return bare ? [ref, `${bare[1]}-${bare[2]}`] : [ref];
}

function joinOf(key: ReferenceKey, loose: boolean): SQL {
  switch (key) {
    case 'contract_number':
      return sql`JOIN ${contracts} c ON c.number = v.form`;
    case 'device_serial':
      return loose
        ? sql`JOIN ${devices} d ON upper(replace(d.serial_number, ' ', '')) = v.form JOIN ${contracts} c ON c.device_id = d.id`
        : sql`JOIN ${devices} d ON d.serial_number = v.form JOIN ${contracts} c ON c.device_id = d.id`;
    case 'phone':
      return sql`JOIN ${customers} p ON p.phone = v.form JOIN ${contracts} c ON c.customer_id = p.id`;
    case 'account_number':
      return sql`JOIN ${customers} p ON p.account_number = v.form JOIN ${contracts} c ON c.customer_id = p.id`;
  }
}

/**
 * The contracts that references name under one key, in one statement per 5,000 values (a
 * statement import resolves every line before its preview). Keyed by the value as given; a
 * serial, a phone or an account may name several contracts (a unit financed again, a customer
 * with two), newest first. A serial not found as stored is tried again ignoring case and spaces
 * (a second statement, for those values only: it cannot use the serial's index).
 */
export async function contractsByReference(
  executor: Executor,
  key: ReferenceKey,
  values: readonly string[],
  country: string,
): Promise<Map<string, ContractByReference[]>> {
  const found = new Map<string, ContractByReference[]>();
  const pairs = [...new Set(values)].flatMap((value) =>
    formsOf(key, value, country).map((form) => ({ value, form })),
  );
  await collect(executor, joinOf(key, false), pairs, found);
  if (key === 'device_serial') {
    const again = pairs
      .filter((pair) => !found.has(pair.value))
      .map((pair) => ({ value: pair.value, form: normaliseReference(pair.value) }));
    await collect(executor, joinOf(key, true), again, found);
  }
  return found;
}

async function collect(
  executor: Executor,
  match: SQL,
  pairs: readonly { value: string; form: string }[],
  found: Map<string, ContractByReference[]>,
): Promise<void> {
  for (let start = 0; start < pairs.length; start += BATCH) {
    const batch = pairs.slice(start, start + BATCH);
    const rows = await queryRows<
      ContractByReference & { value: string; activated_at: string | null; created_at: string }
    >(
      executor,
      sql`SELECT v.value, c.id, c.number, c.status, c.currency, c.activated_at, c.created_at
        FROM unnest(${sql.param(batch.map((p) => p.value))}::text[], ${sql.param(batch.map((p) => p.form))}::text[]) AS v(value, form)
        ${match}
        ORDER BY c.created_at DESC, c.id`,
    );
    for (const row of rows) {
      const list = found.get(row.value) ?? [];
      list.push({
        id: row.id,
        number: row.number,
        status: row.status,
        currency: row.currency,
        activatedAt: row.activated_at ? new Date(row.activated_at) : null,
        createdAt: new Date(row.created_at),
      });
      found.set(row.value, list);
    }
  }
}

/** What a reference's contracts allow: the one live contract, or why none takes the payment. */
export type LiveContract =
  | { contract: ContractByReference; issue: null }
  | { contract: null; issue: 'unknown' }
  | { contract: null; issue: 'several_live'; live: ContractByReference[] }
  | { contract: null; issue: 'not_live'; newest: ContractByReference };

export function liveContractOf(candidates: readonly ContractByReference[]): LiveContract {
  const live = candidates.filter((c) => LIVE.includes(c.status));
  const [only] = live;
  if (live.length === 1 && only) return { contract: only, issue: null };
  if (live.length > 1) return { contract: null, issue: 'several_live', live };
  const [newest] = candidates;
  return newest ? { contract: null, issue: 'not_live', newest } : { contract: null, issue: 'unknown' };
}

/** "CT-000123 is paid off": why a contract takes no payment. */
export const notLiveText = (contract: Pick<ContractByReference, 'number' | 'status'>): string =>
  `${contract.number} is ${contract.status.replaceAll('_', ' ')}`;

export type ReferenceMatch =
  | { contractId: string; contractNumber: string; matchedBy: ReferenceKey }
  | { contractId: null; reason: string };

/**
 * The contract a free-text reference names (a mobile-money BillRefNumber): each key in
 * `REFERENCE_ORDER`; the first that names any contract decides, and it must name exactly one
 * live one. Unmatched, the reason says why (the payment waits in suspense with it).
 */
export async function findContractForReference(
  executor: Executor,
  reference: string | null | undefined,
  country: string,
): Promise<ReferenceMatch> {
  const typed = reference ?? '';
  if (!normaliseReference(typed)) return { contractId: null, reason: 'no account reference' };
  for (const key of REFERENCE_ORDER) {
    const candidates = (await contractsByReference(executor, key, [typed], country)).get(typed) ?? [];
    if (!candidates.length) continue;
    const match = liveContractOf(candidates);
    if (match.issue === null) {
      return { contractId: match.contract.id, contractNumber: match.contract.number, matchedBy: key };
    }
    if (match.issue === 'several_live') {
      const numbers = match.live.map((c) => c.number).join(', ');
      return { contractId: null, reason: `it names several live contracts (${numbers})` };
    }
    if (match.issue === 'not_live') return { contractId: null, reason: notLiveText(match.newest) };
  }
  return { contractId: null, reason: 'no contract, device or customer has this reference' };
}
