import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntityType } from '../contracts/audit';
import { queryRows } from '../db/client';
import type { Executor, Tx } from './context';
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
    id: user?.id ?? null,
    label: user?.email ?? null,
    name: user ? `${user.firstName} ${user.lastName}` : null,
    ip: request.ip,
    requestId: String(request.id),
  };
}

export const SYSTEM_ACTOR: Actor = { id: null, label: 'system', name: null, ip: null, requestId: null };

// The chain key is derived from the app secret and never reaches the database (decision 016).
// It is held per process, not passed in: `writeAudit` is called with a bare transaction by every
// service. Instances that share a database share APP_SECRET, so one process has one key.
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

/** The row's hash: HMAC(key, previous hash | canonical content). */
export function chainHash(prevHash: string | null, row: ChainedContent): string {
  const content = JSON.stringify([
    row.at_us,
    row.actor_id,
    row.actor_label,
    row.action,
    row.entity_type,
    row.entity_id,
    row.before,
    row.after,
    row.ip,
    row.request_id,
  ]);
  return chainMac(`${prevHash ?? ''}|${content}`);
}

interface ChainHead {
  prev_hash: string | null;
  prev_version: number | null;
  at_us: string;
}

/** Takes the chain lock (held to the end of the transaction) and reads the newest row. */
async function lockChainHead(tx: Tx, extra: SQL = sql``): Promise<ChainHead & Record<string, unknown>> {
  const [head] = await queryRows<ChainHead & Record<string, unknown>>(
    tx,
    sql`SELECT h.prev_hash, h.prev_version, h.at_us::text AS at_us ${extra} FROM audit_chain_head() h`,
  );
  if (!head) throw new Error('audit_chain_head() returned nothing');
  return head;
}

/** Runs `work` in the executor's transaction, or in one of its own outside a transaction. */
function inTransaction<T>(executor: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  return executor instanceof PgTransaction ? work(executor as Tx) : executor.transaction(work);
}

/**
 * Appends to the keyed hash chain. Call inside the transaction of the change being recorded
 * (both commit or neither), and last in it: the chain lock taken here is held until commit, so
 * chain order is commit order. Outside a transaction it opens its own.
 */
export async function writeAudit(executor: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  await inTransaction(executor, async (tx) => {
    const head = await lockChainHead(
      tx,
      sql`, ${json(entry.before)}::jsonb::text AS before, ${json(entry.after)}::jsonb::text AS after`,
    );
    // A database migrated from the sha256 chain is sealed at start; this covers a write that
    // comes first (a script), since sealing must precede the first keyed row.
    const prevHash = head.prev_version === 1 ? await sealLegacyAuditRows(tx) : head.prev_hash;
    const row: ChainedContent = {
      at_us: head.at_us,
      actor_id: actor.id,
      actor_label: actor.label,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId ?? null,
      before: head.before as string | null,
      after: head.after as string | null,
      ip: actor.ip,
      request_id: actor.requestId,
    };
    await tx.execute(sql`
      INSERT INTO audit_log (at, actor_id, actor_label, action, entity_type, entity_id, before, after, ip,
                             request_id, prev_hash, hash, chain_version)
      VALUES (timestamptz 'epoch' + ${row.at_us}::bigint * interval '1 microsecond', ${row.actor_id}::text,
              ${row.actor_label}::text, ${row.action}, ${row.entity_type}, ${row.entity_id}::text,
              ${row.before}::jsonb, ${row.after}::jsonb, ${row.ip}::text, ${row.request_id}::text,
              ${prevHash}::text, ${chainHash(prevHash, row)}, 2)`);
  });
}

const SEAL_BATCH = 500;

/**
 * Re-chains the rows hashed with plain sha256 (migration 0002, `chain_version` 1) with the keyed
 * hash, once, in id order: the only UPDATE the append-only trigger allows. Only an intact sha256
 * chain with no keyed row yet is sealed (sealing must not launder an edit made before it); else
 * the rows stay unsealed and `verify` reports them. Returns the newest hash afterwards.
 */
export async function sealLegacyAuditRows(executor: Executor): Promise<string | null> {
  return inTransaction(executor, async (tx) => {
    const head = await lockChainHead(tx);
    if (head.prev_version !== 1) return head.prev_hash;
    const [state] = await queryRows<{ keyed: boolean; broken: boolean }>(
      tx,
      sql`SELECT EXISTS (SELECT 1 FROM audit_log WHERE chain_version <> 1) AS keyed,
                 EXISTS (SELECT 1 FROM (
                   SELECT prev_hash, hash, lag(hash) OVER (ORDER BY id) AS expected_prev,
                          audit_hash(prev_hash, audit_payload(at, actor_id, actor_label, action, entity_type,
                                     entity_id, before, after, ip, request_id)) AS expected_hash
                   FROM audit_log) chain
                 WHERE prev_hash IS DISTINCT FROM expected_prev OR hash IS DISTINCT FROM expected_hash) AS broken`,
    );
    if (state?.keyed || state?.broken) return head.prev_hash;
    let prevHash: string | null = null;
    let cursor = 0;
    for (;;) {
      const rows = await queryRows<ChainedContent & { id: string | number }>(
        tx,
        sql`SELECT id, ${CHAINED_COLUMNS} FROM audit_log WHERE id > ${cursor} ORDER BY id LIMIT ${SEAL_BATCH}`,
      );
      if (!rows.length) return prevHash;
      const values = rows.map((row) => {
        const hash = chainHash(prevHash, row);
        const value = sql`(${Number(row.id)}::bigint, ${prevHash}::text, ${hash}::text)`;
        prevHash = hash;
        return value;
      });
      await tx.execute(sql`
        UPDATE audit_log SET prev_hash = v.prev_hash, hash = v.hash, chain_version = 2
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, prev_hash, hash) WHERE audit_log.id = v.id`);
      cursor = Number(rows.at(-1)?.id);
    }
  });
}
