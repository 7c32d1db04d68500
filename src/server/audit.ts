import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { queryRows } from '../db/client';
import type { Executor } from './context';

/** Who did something and from where; taken from the request by `actorOf`. */
export interface Actor {
  id: string | null;
  label: string | null;
  ip: string | null;
  requestId: string | null;
}

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Writers of the chain take this lock, so chain order is commit order. */
const AUDIT_CHAIN_LOCK = 5_150_212;

export function actorOf(request: FastifyRequest): Actor {
  const user = request.session?.user;
  return { id: user?.id ?? null, label: user?.email ?? null, ip: request.ip, requestId: String(request.id) };
}

export const SYSTEM_ACTOR: Actor = { id: null, label: 'system', ip: null, requestId: null };

/**
 * Appends to the hash-chained audit log. Call inside the transaction of the change being
 * recorded (both commit or neither), and last in it: the chain lock is held until commit.
 * Outside a transaction it opens its own.
 */
export async function writeAudit(executor: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  // Inside the caller's transaction (the usual case: the audit row commits with the change), or
  // in a transaction of its own; the chain lock is held until that transaction ends.
  if (!(executor instanceof PgTransaction)) {
    await executor.transaction((tx) => writeAudit(tx, actor, entry));
    return;
  }
  await executor.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  await executor.execute(sql`
    INSERT INTO audit_log (at, actor_id, actor_label, action, entity_type, entity_id, before, after, ip, request_id, prev_hash, hash)
    SELECT r.at, r.actor_id, r.actor_label, r.action, r.entity_type, r.entity_id, r.before, r.after, r.ip, r.request_id,
           last.hash,
           audit_hash(last.hash, audit_payload(r.at, r.actor_id, r.actor_label, r.action, r.entity_type, r.entity_id,
                                               r.before, r.after, r.ip, r.request_id))
    FROM (SELECT date_trunc('milliseconds', clock_timestamp()) AS at, ${actor.id}::text AS actor_id, ${actor.label}::text AS actor_label,
                 ${entry.action}::text AS action, ${entry.entityType}::text AS entity_type, ${entry.entityId ?? null}::text AS entity_id,
                 ${json(entry.before)}::jsonb AS before, ${json(entry.after)}::jsonb AS after,
                 ${actor.ip}::text AS ip, ${actor.requestId}::text AS request_id) r
    LEFT JOIN LATERAL (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1) last ON true`);
}

export interface ChainVerification {
  ok: boolean;
  rows: number;
  /** The first row whose hash or link does not match, when the chain is broken. */
  firstBrokenId: number | null;
  reason: string | null;
  /** Record this value elsewhere to detect a rewrite of the whole chain later. */
  lastHash: string | null;
}

/** Recomputes every row's hash and link in one set-based pass. */
export async function verifyAuditChain(executor: Executor): Promise<ChainVerification> {
  const [summary] = await queryRows<{ rows: number; last_hash: string | null }>(
    executor,
    sql`SELECT count(*)::int AS rows, (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1) AS last_hash FROM audit_log`,
  );
  const [broken] = await queryRows<{ id: number; bad_link: boolean }>(
    executor,
    sql`SELECT id, prev_hash IS DISTINCT FROM expected_prev AS bad_link
        FROM (SELECT id, prev_hash, hash, lag(hash) OVER (ORDER BY id) AS expected_prev,
                     audit_hash(prev_hash, audit_payload(at, actor_id, actor_label, action, entity_type, entity_id,
                                                         before, after, ip, request_id)) AS expected_hash
              FROM audit_log) chain
        WHERE prev_hash IS DISTINCT FROM expected_prev OR hash IS DISTINCT FROM expected_hash
        ORDER BY id LIMIT 1`,
  );
  return {
    ok: !broken,
    rows: Number(summary?.rows ?? 0),
    firstBrokenId: broken ? Number(broken.id) : null,
    reason: broken
      ? broken.bad_link
        ? 'a row before it was removed or reordered'
        : 'its content was changed'
      : null,
    lastHash: summary?.last_hash ?? null,
  };
}
