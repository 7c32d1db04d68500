import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { runWrites, type Writes } from '../db/writes';
import type { TxContext } from './context';
import { conflict } from './errors';

/** The operations a key can be sent to: a key is unique within one, not across them. */
export type IdempotentOperation = 'contract.deposit' | 'payment.create';

/** sha256 of the canonical JSON of a request (keys sorted, at every depth). */
export function fingerprintOf(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface IdempotentClaim {
  operation: IdempotentOperation;
  key: string;
  /** What was asked: the target and the body, without the key. */
  request: unknown;
  /** The id the request will make if it is the first. */
  resourceId: string;
}

/**
 * Claims an `Idempotency-Key` in the operation's transaction (decision 015). Answers null when this
 * request is the first (go on and make `resourceId`), or the first request's resource id when it
 * is a replay. The same key with a different request is a 409. A concurrent first request holding
 * the key makes this one wait for its commit (the primary key's insert lock), so every replay,
 * however parallel, answers with the first result; if the first rolls back, this one goes on.
 */
export async function claimIdempotencyKey(ctx: TxContext, claim: IdempotentClaim): Promise<string | null> {
  const { claimed } = await runWrites<{ claimed: boolean }>(ctx.tx, [claimWrites(ctx, claim)]);
  return claimed ? null : firstClaim(ctx, claim);
}

/**
 * The claim as a part of a larger statement (a payment's first, decision 022): its column
 * `claimed` is true when this request is the first; else `firstClaim` answers the replay.
 */
export function claimWrites(ctx: Pick<TxContext, 'clock'>, claim: IdempotentClaim): Writes {
  return {
    with: [
      sql`idempotency_claim AS (
        INSERT INTO ${idempotencyKeys} (operation, key, fingerprint, resource_id, created_at)
        VALUES (${claim.operation}, ${claim.key}, ${fingerprintOf(claim.request)}, ${claim.resourceId}, ${ctx.clock.now()})
        ON CONFLICT DO NOTHING RETURNING 1)`,
    ],
    select: [sql`${claimWritten} AS claimed`],
  };
}

/**
 * Claims many keys in one statement (a batch of payments, each its own request's): answers the
 * keys claimed now; a key already taken is a replay (or a 409), for `firstClaim` to answer once
 * this transaction is over. The rows go in in key order, so two batches that wait on each
 * other's uncommitted keys always wait in the same order and never deadlock.
 */
export async function claimIdempotencyKeys(
  ctx: TxContext,
  claims: readonly IdempotentClaim[],
): Promise<Set<string>> {
  if (!claims.length) return new Set();
  const sorted = [...claims].sort((a, b) => {
    const [x, y] = [claimKey(a), claimKey(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const col = (pick: (claim: IdempotentClaim) => string) => sql.param(sorted.map(pick));
  const rows = await queryRows<{ operation: string; key: string }>(
    ctx.tx,
    sql`INSERT INTO ${idempotencyKeys} (operation, key, fingerprint, resource_id, created_at)
      SELECT v.operation, v.key, v.fingerprint, v.resource_id, ${ctx.clock.now()}
      FROM unnest(${col((c) => c.operation)}::text[], ${col((c) => c.key)}::text[],
                  ${col((c) => fingerprintOf(c.request))}::text[], ${col((c) => c.resourceId)}::text[])
        WITH ORDINALITY AS v(operation, key, fingerprint, resource_id, i)
      ORDER BY v.i
      ON CONFLICT DO NOTHING RETURNING operation, key`,
    { prepared: true },
  );
  return new Set(rows.map((row) => `${row.operation}\u0000${row.key}`));
}

/** The key of a claim in `claimIdempotencyKeys`' answer. */
export const claimKey = (claim: Pick<IdempotentClaim, 'operation' | 'key'>) =>
  `${claim.operation}\u0000${claim.key}`;

/** The condition of the parts that hang on `claimWrites`' claim (this request's key was free). */
export const claimWritten = sql`EXISTS (SELECT 1 FROM idempotency_claim)`;

/**
 * A claim that found its key taken: the first request's resource id, or a 409 when that request
 * was another. Its own statement: the claim's snapshot predates the first request's commit.
 */
export async function firstClaim(ctx: TxContext, claim: IdempotentClaim): Promise<string> {
  const [first] = await ctx.tx
    .select({ fingerprint: idempotencyKeys.fingerprint, resourceId: idempotencyKeys.resourceId })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.operation, claim.operation), eq(idempotencyKeys.key, claim.key)));
  if (!first) throw new Error(`Idempotency key ${claim.operation} vanished between insert and read`);
  if (first.fingerprint !== fingerprintOf(claim.request)) {
    throw conflict(
      'This Idempotency-Key was already used for a different request; send a new key for a new request',
      'IDEMPOTENCY_KEY_REUSED',
    );
  }
  return first.resourceId;
}

/** Points a claim at what the request turned out to be (a replay found by its reference). */
export async function settleIdempotencyKey(
  ctx: TxContext,
  claim: Pick<IdempotentClaim, 'operation' | 'key'>,
  resourceId: string,
): Promise<void> {
  await ctx.tx
    .update(idempotencyKeys)
    .set({ resourceId })
    .where(and(eq(idempotencyKeys.operation, claim.operation), eq(idempotencyKeys.key, claim.key)));
}
