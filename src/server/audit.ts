import { type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntityType } from '../contracts/audit';
import type { Writes } from '../db/writes';
import type { Executor } from './context';
import type { Keyring } from './secrets';

/** Who did something and from where; taken from the request by `actorOf`. */
export interface Actor {
  id: string | null;
  label: string | null;
  /** How the person is shown to others ("First Last"); null for the system and anonymous callers. */
  name: string | null;
  ip: string | null;
  requestId: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  entityType: AuditEntityType;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

export function actorOf(request: FastifyRequest): Actor {
  const user = request.session?.user;
  return {
    ...(user ? actorOfUser(user) : { id: null, label: null, name: null }),
    ip: request.ip,
    requestId: String(request.id),
  };
}

/** A person acting outside a request (a job carrying on what they started): no address, no request. */
export function actorOfUser(user: { id: string; email: string; firstName: string; lastName: string }): Actor {
  return {
    id: user.id,
    label: user.email,
    name: `${user.firstName} ${user.lastName}`,
    ip: null,
    requestId: null,
  };
}

export const SYSTEM_ACTOR: Actor = { id: null, label: 'system', name: null, ip: null, requestId: null };

// The chain key is derived from the app secret and never reaches the database (decision 016).
// It is held per process, not passed in: sealing (`sealAuditChain`, audit-sealer.ts) is also run by
// scripts and tests with a bare database handle. Instances that share a database share APP_SECRET,
// so one process has one key.
let chainKey: { keyring: Keyring; probe: string } | null = null;
const CHAIN_PURPOSE = 'audit-chain';

/** Called by buildApp: the key of every audit hash and checkpoint this process writes or checks. */
export function setAuditChainKey(keyring: Keyring): void {
  const probe = keyring.sign(CHAIN_PURPOSE, 'probe');
  if (chainKey && chainKey.probe !== probe)
    throw new Error('This process already serves another app secret: the audit chain has one key');
  chainKey = { keyring, probe };
}

/** HMAC-SHA256 of a message with the chain key, in hex. */
export function chainMac(message: string): string {
  if (!chainKey) throw new Error('The audit chain key is not set (buildApp sets it)');
  return Buffer.from(chainKey.keyring.sign(CHAIN_PURPOSE, message), 'base64url').toString('hex');
}

/**
 * What the keyed hash covers, as the database gives it back: the time in epoch microseconds and
 * the JSON as jsonb's own text, so the writer and the verifier hash the very same text.
 */
export interface ChainedContent {
  at_us: string;
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before: string | null;
  after: string | null;
  ip: string | null;
  request_id: string | null;
}

/** Selects a stored row's `ChainedContent`. */
export const CHAINED_COLUMNS: SQL = sql.raw(
  `(extract(epoch FROM at) * 1000000)::bigint::text AS at_us, actor_id, actor_label, action, entity_type,
   entity_id, before::text AS before, after::text AS after, ip, request_id`,
);

/** The content as a JSON array, its JSON columns given by `json` (their text, or their value). */
function contentText(row: ChainedContent, json: (text: string | null) => unknown): string {
  return JSON.stringify([
    row.at_us,
    row.actor_id,
    row.actor_label,
    row.action,
    row.entity_type,
    row.entity_id,
    json(row.before),
    json(row.after),
    row.ip,
    row.request_id,
  ]);
}

/** The row's hash: HMAC(key, previous hash | canonical content). */
export function chainHash(prevHash: string | null, row: ChainedContent): string {
  return chainMac(`${prevHash ?? ''}|${contentText(row, (text) => text)}`);
}

/** Objects with their keys sorted, at every level: jsonb keeps its own key order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The row's write seal, computed by the writer before the row exists: HMAC(key, content) with the
 * JSON compared as values (keys sorted), since the writer knows the JSON it sends, not the text
 * jsonb will give back. It proves the app wrote this content: an insert with SQL alone, or an edit
 * before the sealer chains the row, does not carry a valid one (decision 023).
 */
export function writeMac(row: ChainedContent): string {
  return chainMac(
    `write|${contentText(row, (text) => (text === null ? null : sortedKeys(JSON.parse(text))))}`,
  );
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

// Whoever seals on this process (`AuditSealer`, one per app) hears of every row written, so it
// seals shortly after; a write knows no app context, so the listeners are per process like the key.
const writtenListeners = new Set<() => void>();

/** Calls `listener` whenever an audit row's INSERT is built; returns the unsubscribe. */
export function onAuditWritten(listener: () => void): () => void {
  writtenListeners.add(listener);
  return () => writtenListeners.delete(listener);
}

/**
 * The bare `INSERT INTO audit_log …` of one entry (no trailing semicolon), for a hot path that
 * runs it inside a data-modifying CTE of its own statement. The row goes in unsealed (no hash, no
 * place in the chain) with its write seal: the sealer chains it after commit (decision 023), so the
 * write takes no lock and reads nothing. `at` is this process's time of the write, in milliseconds.
 * With `when`, the row is written only when it holds (the CTE's other writes happened).
 */
export function auditInsertSql(actor: Actor, entry: AuditEntry, when?: SQL): SQL {
  const atMs = Date.now();
  const [row] = sealedRows([{ actor, entry }], atMs);
  if (!row) throw new Error('An audit row was not sealed');
  return sql`INSERT INTO audit_log (at, actor_id, actor_label, action, entity_type, entity_id, before, after, ip,
                                    request_id, write_mac, chain_version)
    SELECT timestamptz 'epoch' + ${atMs}::bigint * interval '1 millisecond', ${row.actor_id}::text,
           ${row.actor_label}::text, ${row.action}::text, ${row.entity_type}::text, ${row.entity_id}::text,
           ${row.before}::jsonb, ${row.after}::jsonb, ${row.ip}::text, ${row.request_id}::text, ${row.mac}::text, 3
    ${when ? sql`WHERE ${when}` : sql``}`;
}

/** The entries as rows with their write seals, all at `atMs`; the sealer is told of them. */
function sealedRows(
  entries: ReadonlyArray<{ actor: Actor; entry: AuditEntry }>,
  atMs: number,
): Array<ChainedContent & { mac: string }> {
  const rows = entries.map(({ actor, entry }) => {
    const row: ChainedContent = {
      at_us: `${atMs}000`,
      actor_id: actor.id,
      actor_label: actor.label,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId ?? null,
      before: json(entry.before),
      after: json(entry.after),
      ip: actor.ip,
      request_id: actor.requestId,
    };
    return { ...row, mac: writeMac(row) };
  });
  for (const listener of writtenListeners) listener();
  return rows;
}

/**
 * Many entries as a part of a larger statement (the CTE `audited`), each with its own actor and
 * write seal (a batch of payments, each posted for its own request): as `writeAudit` for each.
 */
export function auditRowsWrites(entries: ReadonlyArray<{ actor: Actor; entry: AuditEntry }>): Writes {
  const atMs = Date.now();
  const rows = sealedRows(entries, atMs);
  const col = (pick: (row: (typeof rows)[number]) => string | null) => sql.param(rows.map(pick));
  return {
    with: [
      sql`audited AS (INSERT INTO audit_log (at, actor_id, actor_label, action, entity_type, entity_id,
                                    before, after, ip, request_id, write_mac, chain_version)
    SELECT timestamptz 'epoch' + ${atMs}::bigint * interval '1 millisecond', v.actor_id, v.actor_label, v.action,
           v.entity_type, v.entity_id, v.before::jsonb, v.after::jsonb, v.ip, v.request_id, v.mac, 3
    FROM unnest(${col((r) => r.actor_id)}::text[], ${col((r) => r.actor_label)}::text[], ${col((r) => r.action)}::text[],
                ${col((r) => r.entity_type)}::text[], ${col((r) => r.entity_id)}::text[], ${col((r) => r.before)}::text[],
                ${col((r) => r.after)}::text[], ${col((r) => r.ip)}::text[], ${col((r) => r.request_id)}::text[],
                ${col((r) => r.mac)}::text[]) WITH ORDINALITY
      AS v(actor_id, actor_label, action, entity_type, entity_id, before, after, ip, request_id, mac, i)
    ORDER BY v.i)`,
    ],
  };
}

/**
 * Records an entry: one plain INSERT. Call inside the transaction of the change being recorded
 * (both commit or neither); outside a transaction the row stands alone.
 */
export async function writeAudit(executor: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await executor.execute(auditInsertSql(actor, entry));
}
