import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AuditAction, AuditEntityType } from '../../../contracts/audit';
import type { InvestorCode, InvestorScope, IssueInvestorCodeBody } from '../../../contracts/investor';
import { queryRows } from '../../../db/client';
import { investorCodes, users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { notFound, unauthorized, unprocessable } from '../../errors';
import { endGuestSessionsOf } from '../../guest-sessions';
import { newId } from '../../ids';
import { sha256 } from '../../secrets';

/**
 * Investor codes (issue 16 §2): issued by administrators, shown once, kept as their SHA-256 with
 * the last four characters as a hint; they expire and can be revoked (which ends their sessions).
 */

const AUDIT = {
  issue: 'investor_code.issue',
  revoke: 'investor_code.revoke',
  login: 'investor_code.login',
  entity: 'investor_code',
} as const satisfies Record<string, AuditAction | AuditEntityType>;

/** Crockford's base32 without the look-alikes: easy to read out and type on a phone. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 24;

/** A new code: 24 random characters (120 bits) in groups of four, "7KQ2-…". */
export function newInvestorCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return (chars.join('').match(/.{4}/g) ?? []).join('-');
}

/** What is hashed: the code's characters only, upper case (dashes, spaces and case as typed do not matter). */
export function normaliseInvestorCode(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

const codeHash = (code: string) => sha256(normaliseInvestorCode(code));

interface CodeRow {
  id: string;
  label: string;
  hint: string;
  scopeKind: 'portfolio' | 'tag';
  scopeTag: string | null;
  expiresAt: Date;
  createdAt: Date;
  createdByName: string | null;
  revokedAt: Date | null;
  revokedByName: string | null;
  lastUsedAt: Date | null;
  useCount: number;
}

/** A code's scope from its columns (a tag scope without its tag reads as the whole portfolio). */
const scopeOf = (kind: string, tag: string | null): InvestorScope =>
  kind === 'tag' && tag ? { kind: 'tag', tag } : { kind: 'portfolio' };

function present(row: CodeRow, now: Date): InvestorCode {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: row.id,
    label: row.label,
    hint: row.hint,
    scope: scopeOf(row.scopeKind, row.scopeTag),
    status: row.revokedAt ? 'revoked' : new Date(row.expiresAt) <= now ? 'expired' : 'active',
    expiresAt: new Date(row.expiresAt).toISOString(),
    // Stored as the midnight after the last day it works (see issueInvestorCode).
    expiresOn: new Date(new Date(row.expiresAt).getTime() - 86_400_000).toISOString().slice(0, 10),
    createdAt: new Date(row.createdAt).toISOString(),
    createdByName: row.createdByName,
    revokedAt: iso(row.revokedAt),
    revokedByName: row.revokedByName,
    lastUsedAt: iso(row.lastUsedAt),
    useCount: row.useCount,
  };
}

async function codeRows(executor: Executor, id?: string): Promise<CodeRow[]> {
  const rows = await queryRows<CodeRow>(
    executor,
    sql`
    SELECT k.id, k.label, k.hint, k.scope_kind AS "scopeKind", k.scope_tag AS "scopeTag",
           k.expires_at AS "expiresAt", k.created_at AS "createdAt",
           CASE WHEN cu.id IS NULL THEN NULL ELSE cu.first_name || ' ' || cu.last_name END AS "createdByName",
           k.revoked_at AS "revokedAt",
           CASE WHEN ru.id IS NULL THEN NULL ELSE ru.first_name || ' ' || ru.last_name END AS "revokedByName",
           k.last_used_at AS "lastUsedAt", k.use_count AS "useCount"
    FROM ${investorCodes} k
    LEFT JOIN ${users} cu ON cu.id = k.created_by
    LEFT JOIN ${users} ru ON ru.id = k.revoked_by
    ${id ? sql`WHERE k.id = ${id}` : sql``}
    ORDER BY k.created_at DESC, k.id
    LIMIT 500`,
  );
  return rows;
}

/** Every code, newest first (at most 500: a handful per investor). */
export async function listInvestorCodes(executor: Executor, now: Date): Promise<InvestorCode[]> {
  return (await codeRows(executor)).map((row) => present(row, now));
}

/** Issues a code; the answer is the only place its characters appear. */
export async function issueInvestorCode(
  ctx: TxContext,
  actor: Actor,
  input: IssueInvestorCodeBody & { scope: InvestorScope },
): Promise<{ code: string; item: InvestorCode }> {
  const code = newInvestorCode();
  const id = newId();
  const now = ctx.clock.now();
  // The code works through the whole expiry day (UTC): it ends at the next midnight.
  const expiresAt = new Date(`${input.expiresOn}T00:00:00.000Z`);
  expiresAt.setUTCDate(expiresAt.getUTCDate() + 1);
  if (expiresAt <= now) throw unprocessable('The expiry must be today or later');
  const normalised = normaliseInvestorCode(code);
  await ctx.tx.insert(investorCodes).values({
    id,
    label: input.label,
    codeHash: codeHash(code),
    hint: normalised.slice(-4),
    scopeKind: input.scope.kind,
    scopeTag: input.scope.kind === 'tag' ? input.scope.tag : null,
    expiresAt,
    createdBy: actor.id,
    createdAt: now,
  });
  const [row] = await codeRows(ctx.tx, id);
  if (!row) throw new Error('investor code not written');
  const item = present(row, now);
  await writeAudit(ctx.tx, actor, {
    action: AUDIT.issue,
    entityType: AUDIT.entity,
    entityId: id,
    after: { label: item.label, hint: item.hint, scope: item.scope, expiresAt: item.expiresAt },
  });
  return { code, item };
}

/** Revokes a code and ends its sessions; revoking it again changes nothing. */
export async function revokeInvestorCode(ctx: TxContext, actor: Actor, id: string): Promise<InvestorCode> {
  const now = ctx.clock.now();
  const [row] = await codeRows(ctx.tx, id);
  if (!row) throw notFound('Investor code not found');
  const before = present(row, now);
  if (row.revokedAt) return before;
  await ctx.tx.execute(
    sql`UPDATE ${investorCodes} SET revoked_at = ${now.toISOString()}::timestamptz, revoked_by = ${actor.id} WHERE id = ${id}`,
  );
  await endGuestSessionsOf(ctx.tx, { investorCodeId: id });
  // Read again for the revoker's name.
  const [revoked] = await codeRows(ctx.tx, id);
  const item = present(revoked as CodeRow, now);
  await writeAudit(ctx.tx, actor, {
    action: AUDIT.revoke,
    entityType: AUDIT.entity,
    entityId: id,
    before: { status: before.status },
    after: { status: item.status },
  });
  return item;
}

/** The same refusal for an unknown, revoked or expired code: nothing tells them apart. */
const REFUSED = 'This investor code is not valid. Check it, or ask for a new one.';

/**
 * Checks a code and records its use (count, time, audit); the caller starts the session in the
 * same transaction. A live code is found by its hash through the unique index.
 */
export async function useInvestorCode(
  ctx: TxContext,
  actor: Actor,
  code: string,
): Promise<{ id: string; label: string; scope: InvestorScope }> {
  const now = ctx.clock.now();
  const [row] = await queryRows<{ id: string; label: string; scopeKind: string; scopeTag: string | null }>(
    ctx.tx,
    sql`
    UPDATE ${investorCodes} SET last_used_at = ${now.toISOString()}::timestamptz, use_count = use_count + 1
    WHERE code_hash = ${codeHash(code)} AND revoked_at IS NULL AND expires_at > ${now.toISOString()}::timestamptz
    RETURNING id, label, scope_kind AS "scopeKind", scope_tag AS "scopeTag"`,
  );
  if (!row) throw unauthorized(REFUSED);
  await writeAudit(
    ctx.tx,
    { ...actor, label: `investor:${row.label}` },
    {
      action: AUDIT.login,
      entityType: AUDIT.entity,
      entityId: row.id,
    },
  );
  return {
    id: row.id,
    label: row.label,
    scope: scopeOf(row.scopeKind, row.scopeTag),
  };
}
