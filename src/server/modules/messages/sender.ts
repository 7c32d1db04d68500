import { and, asc, eq, lte } from 'drizzle-orm';
import { z } from 'zod';
import {
  isTransactional,
  MESSAGE_MAX_ATTEMPTS,
  MESSAGE_RETRY_MINUTES,
  templateLabel,
} from '../../../contracts/messages';
import { messages } from '../../../db/schema';
import { SYSTEM_ACTOR } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { localTime } from '../../dates';
import { defineJob } from '../../jobs/definition';
import { organisation } from '../../organisation';
import { withTransaction } from '../../transaction';
import { addEvent } from '../contracts/events';
import { messageContacts } from '../customers/contacts';
import { consoleProvider, type MessageProvider } from './provider';
import { quietHoursEnd } from './quiet-hours';

/**
 * The sender (decision 027): delivers the queued messages that are due, one transaction each, in
 * the order they became due. Before each it enforces, at the moment of sending:
 * - consent: a customer without consent to the channel is never sent to; the message is
 *   `skipped` with the reason;
 * - quiet hours in the organisation's time zone: a reminder or warning is held until they end
 *   (its next attempt moved there), never dropped; tokens and receipts go at once.
 * A failed attempt is retried after MESSAGE_RETRY_MINUTES (back-off) up to MESSAGE_MAX_ATTEMPTS;
 * then, or at once when the provider says retrying will not help, the message is `failed` with
 * the provider's reason. Sent and finally failed messages are written on the contract's timeline.
 */

/** Messages read per batch. */
const BATCH = 500;
/** A run stops taking new batches after this long; the next minute's run takes the rest. */
const RUN_BUDGET_MS = 45_000;

export interface SenderRun {
  sent: number;
  deferred: number;
  skipped: number;
  retrying: number;
  failed: number;
}

type Outcome = keyof SenderRun | 'gone';

/** The provider the app runs with (the console until the communications issue's gateways). */
export function configuredMessageProvider(ctx: AppContext): MessageProvider {
  return consoleProvider(ctx.log);
}

export async function sendDueMessages(
  ctx: AppContext,
  provider: MessageProvider = configuredMessageProvider(ctx),
): Promise<SenderRun> {
  const run: SenderRun = { sent: 0, deferred: 0, skipped: 0, retrying: 0, failed: 0 };
  const started = Date.now();
  // Batch after batch until nothing is due or the run has had its time (the next minute's run
  // goes on): a night's reminders for a large book go out in one run, not 500 a minute.
  while (Date.now() - started < RUN_BUDGET_MS) {
    const due = await ctx.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.status, 'queued'), lte(messages.nextAttemptAt, ctx.clock.now())))
      .orderBy(asc(messages.nextAttemptAt), asc(messages.id))
      .limit(BATCH);
    if (!due.length) break;
    const org = await organisation(ctx, ctx.db);
    let moved = 0;
    for (const { id } of due) {
      const outcome = await withTransaction(ctx, (tx) => sendOne(tx, provider, id, org));
      if (outcome !== 'gone') {
        run[outcome] += 1;
        moved += 1;
      }
    }
    // Every one held by another sender: leave them to it.
    if (moved === 0 || due.length < BATCH) break;
  }
  return run;
}

async function sendOne(
  ctx: TxContext,
  provider: MessageProvider,
  id: string,
  org: { timeZone: string; quietHoursStart: string; quietHoursEnd: string },
): Promise<Outcome> {
  const now = ctx.clock.now();
  // Another sender (a second instance) may hold it: that one sends it.
  const [message] = await ctx.tx
    .select()
    .from(messages)
    .where(eq(messages.id, id))
    .for('update', { skipLocked: true });
  if (message?.status !== 'queued' || !message.nextAttemptAt || message.nextAttemptAt > now) return 'gone';
  const update = (values: Partial<typeof messages.$inferInsert>) =>
    ctx.tx
      .update(messages)
      .set({ ...values, updatedAt: now })
      .where(eq(messages.id, id));

  // A conversation's reply answers the person who just wrote to us (a number not yet linked to a
  // customer among them): it needs no standing consent, as a receipt needs none of its own.
  const answersInbound = message.templateKey === 'reply';
  const contact = message.customerId
    ? (await messageContacts(ctx.tx, [message.customerId])).get(message.customerId)
    : undefined;
  if (!answersInbound && !contact?.consent[message.channel]) {
    const channel = message.channel === 'sms' ? 'SMS' : 'WhatsApp';
    await update({
      status: 'skipped',
      skippedReason: `The customer has not consented to ${channel} messages`,
      nextAttemptAt: null,
    });
    return 'skipped';
  }
  if (!isTransactional(message.templateKey)) {
    const until = quietHoursEnd(now, localTime(now, org.timeZone), org.quietHoursStart, org.quietHoursEnd);
    if (until) {
      await update({ nextAttemptAt: until });
      return 'deferred';
    }
  }

  const attempts = message.attempts + 1;
  const result = await provider
    .send({ id, channel: message.channel, recipient: message.recipient, body: message.body })
    .catch((error: unknown) => ({
      ok: false as const,
      reason: error instanceof Error ? error.message : String(error),
      retryable: true,
    }));
  const label = templateLabel(message.templateKey);
  const channel = message.channel === 'sms' ? 'SMS' : 'WhatsApp';
  if (result.ok) {
    await update({
      status: result.delivered ? 'delivered' : 'sent',
      attempts,
      provider: provider.name,
      providerReference: result.providerReference,
      nextAttemptAt: null,
      sentAt: now,
      deliveredAt: result.delivered ? now : null,
    });
    if (message.contractId)
      await addEvent(ctx, message.contractId, SYSTEM_ACTOR, 'message_sent', `${label} sent by ${channel}`, {
        messageId: id,
        template: message.templateKey,
        attempts,
      });
    return 'sent';
  }
  const retry = result.retryable && attempts < MESSAGE_MAX_ATTEMPTS;
  const minutes = MESSAGE_RETRY_MINUTES[attempts - 1] ?? MESSAGE_RETRY_MINUTES.at(-1) ?? 1;
  await update({
    status: retry ? 'queued' : 'failed',
    attempts,
    provider: provider.name,
    failureReason: result.reason,
    nextAttemptAt: retry ? new Date(now.getTime() + minutes * 60_000) : null,
  });
  if (retry) return 'retrying';
  if (message.contractId)
    await addEvent(
      ctx,
      message.contractId,
      SYSTEM_ACTOR,
      'message_failed',
      `${label} by ${channel} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${result.reason}`,
      { messageId: id, template: message.templateKey, attempts },
    );
  return 'failed';
}

/**
 * The sender's schedule key: the current minute while a queued message is due (so it runs each
 * minute while there is work), 'idle' when none is (no run, and no run record, every idle minute).
 * One read of the due index per scheduler tick.
 */
export async function dueMessagesKey(ctx: AppContext): Promise<string> {
  const now = ctx.clock.now();
  const [due] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.status, 'queued'), lte(messages.nextAttemptAt, now)))
    .limit(1);
  return due ? now.toISOString().slice(0, 16) : 'idle';
}

/**
 * Whenever messages are due (checked at each scheduler tick), one run at a time (a second
 * instance's run waits, and the row locks skip what another holds); also sent on demand.
 * Idempotent: a message sent is no longer queued.
 */
export const sendMessagesJob = defineJob({
  name: 'messages.send',
  description: 'Delivers the queued customer messages that are due (consent, quiet hours, retries)',
  payload: z.object({}),
  schedule: { whenChanged: dueMessagesKey },
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  singletonKey: 'messages.send',
  run: async (ctx) => ({ ...(await sendDueMessages(ctx)) }),
});
