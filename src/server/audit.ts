import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntityType } from '../contracts/audit';
import { queryRows } from '../db/client';
import type { Executor } from './context';

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

/**
 * Appends to the hash-chained audit log. Call inside the transaction of the change being
 * recorded (both commit or neither), and last in it: `audit_append` (migration 0010) takes the
 * chain lock, held until commit, so chain order is commit order. Outside a transaction the one
 * statement is its own transaction.
 */
export async function writeAudit(executor: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  await executor.execute(sql`
    SELECT audit_append(${actor.id}::text, ${actor.label}::text, ${entry.action}::text, ${entry.entityType}::text,
                        ${entry.entityId ?? null}::text, ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb,
                        ${actor.ip}::text, ${actor.requestId}::text)`);
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
