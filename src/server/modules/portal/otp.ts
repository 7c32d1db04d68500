import { randomInt } from 'node:crypto';
import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import { OTP_DIGITS } from '../../../contracts/portal';
import { portalOtps } from '../../../db/schema';
import { SYSTEM_ACTOR } from '../../audit';
import type { TxContext } from '../../context';
import { tooManyRequests } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { customerOfPhone, normalisePhone } from '../customers/phone';
import { queueMessage } from '../messages/outbox';

/**
 * One-time sign-in codes of the customer portal (PRODUCT.md §6): 6 digits, valid 5 minutes, void
 * after 5 wrong tries. Only an HMAC of the code (under the app's keyring, bound to its row) is
 * kept. Limits are counted in `portal_otps` itself, so they hold across instances; a row is
 * written for every request, known phone or not, so the answers and limits never tell them apart.
 */
export const OTP_VALID_MS = 5 * 60_000;
export const OTP_MAX_TRIES = 5;
const WINDOW_MS = 15 * 60_000;
export const OTP_PER_PHONE = 3;
export const OTP_PER_ADDRESS = 10;
const PURPOSE = 'portal-otp';

const codeHash = (ctx: TxContext, id: string, code: string) => ctx.keyring.sign(PURPOSE, `${id}|${code}`);

/** The phone as the customers table holds it (a 400 naming `phone` when it is not one). */
export async function portalPhone(ctx: TxContext, text: string): Promise<string> {
  const org = await organisation(ctx, ctx.tx);
  return normalisePhone(text, org.country, 'phone');
}

/** Issues a code for the phone and queues it by SMS when the phone is a customer's. */
export async function requestOtp(ctx: TxContext, input: { phone: string; ip: string | null }): Promise<void> {
  const phone = await portalPhone(ctx, input.phone);
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - WINDOW_MS);
  // Two requests for one phone at once are counted one after the other.
  await ctx.tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`portal-otp:${phone}`}))`);
  const [byPhone] = await ctx.tx
    .select({ n: count() })
    .from(portalOtps)
    .where(and(eq(portalOtps.phone, phone), gt(portalOtps.createdAt, since)));
  if ((byPhone?.n ?? 0) >= OTP_PER_PHONE)
    throw tooManyRequests(
      'Too many codes were asked for this number. Wait 15 minutes, then ask for a new one.',
      WINDOW_MS / 1000,
    );
  if (input.ip) {
    const [byAddress] = await ctx.tx
      .select({ n: count() })
      .from(portalOtps)
      .where(and(eq(portalOtps.ip, input.ip), gt(portalOtps.createdAt, since)));
    if ((byAddress?.n ?? 0) >= OTP_PER_ADDRESS)
      throw tooManyRequests(
        'Too many codes were asked from this network. Wait 15 minutes, then try again.',
        WINDOW_MS / 1000,
      );
  }
  const customerId = await customerOfPhone(ctx.tx, phone);
  const id = newId();
  const code = String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
  await ctx.tx.insert(portalOtps).values({
    id,
    phone,
    customerId,
    codeHash: codeHash(ctx, id, code),
    ip: input.ip,
    createdAt: now,
    expiresAt: new Date(now.getTime() + OTP_VALID_MS),
  });
  if (!customerId) return;
  const org = await organisation(ctx, ctx.tx);
  // The conversation template carries any text; it is transactional, so quiet hours never hold it.
  await queueMessage(
    ctx,
    { ...SYSTEM_ACTOR, label: 'customer portal' },
    {
      customerId,
      template: 'reply',
      variables: {
        text: `${code} is your ${org.name} sign-in code. It expires in 5 minutes. Never share it: we will never ask you for it.`,
      },
      source: { type: 'portal_otp', id },
      dedupeKey: `portal-otp:${id}`,
    },
  );
}

export type OtpCheck = { ok: true; customerId: string } | { ok: false; reason: 'wrong' | 'void' };

/**
 * Checks a code against the phone's newest one, under its row lock (parallel guesses are counted
 * one by one, never more than 5). Answers the outcome instead of throwing, so the route can
 * commit a wrong try's count before it refuses.
 */
export async function checkOtp(ctx: TxContext, input: { phone: string; code: string }): Promise<OtpCheck> {
  const phone = await portalPhone(ctx, input.phone);
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .select()
    .from(portalOtps)
    .where(and(eq(portalOtps.phone, phone), gt(portalOtps.createdAt, new Date(now.getTime() - WINDOW_MS))))
    .orderBy(desc(portalOtps.createdAt), desc(portalOtps.id))
    .limit(1)
    .for('update');
  if (!row || row.consumedAt || row.expiresAt <= now) return { ok: false, reason: 'wrong' };
  if (row.attempts >= OTP_MAX_TRIES) return { ok: false, reason: 'void' };
  if (!row.customerId || !ctx.keyring.verify(PURPOSE, `${row.id}|${input.code}`, row.codeHash)) {
    const attempts = row.attempts + 1;
    await ctx.tx.update(portalOtps).set({ attempts }).where(eq(portalOtps.id, row.id));
    return { ok: false, reason: attempts >= OTP_MAX_TRIES ? 'void' : 'wrong' };
  }
  await ctx.tx.update(portalOtps).set({ consumedAt: now }).where(eq(portalOtps.id, row.id));
  return { ok: true, customerId: row.customerId };
}
