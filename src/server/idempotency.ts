import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
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
