import { randomBytes } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { recoveryCodes } from '../../../db/schema';
import type { Executor } from '../../context';
import { newId } from '../../ids';
import { sha256 } from '../../secrets';
import { base32Encode } from './totp';

const CODES = 10;

/** `xxxxx-xxxxx` in lower-case base32: easy to read out and type, 50 bits each. */
function newCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/** Replaces the user's codes with a new set; returns them in clear, once. */
export async function issueRecoveryCodes(executor: Executor, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: CODES }, newCode);
  await executor.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await executor
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ id: newId(), userId, codeHash: sha256(code), createdAt: now })));
  return codes;
}

/** Marks a matching unused code as used; false when there is none. */
export async function consumeRecoveryCode(
  executor: Executor,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const used = await executor
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, sha256(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

export async function recoveryCodesLeft(executor: Executor, userId: string): Promise<number> {
  const [row] = await executor
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export async function deleteRecoveryCodes(executor: Executor, userId: string): Promise<void> {
  await executor.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}
