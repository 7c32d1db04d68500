import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  isTransactional,
  MESSAGE_CHANNELS,
  MESSAGE_MAX_ATTEMPTS,
  MESSAGE_RETRY_MINUTES,
  type MessageChannel,
  templateLabel,
} from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { messages } from '../../../db/schema';
import { SYSTEM_ACTOR } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { localTime } from '../../dates';
import { defineJob } from '../../jobs/definition';
import { organisation } from '../../organisation';
import { withTransaction } from '../../transaction';
import { addEvents } from '../contracts/events';
import { messageContacts } from '../customers/contacts';
import { channelName } from './delivery-status';
import type { MessageProvider, OutgoingMessage, ProviderSet, SendResult } from './provider';
import { singleProvider } from './provider';
import { configuredProviders } from './providers';
import { quietHoursEnd } from './quiet-hours';
import { RateWindow, realTimer, type Timer } from './rate-window';
import { readMessagingSettings } from './settings';

/**
 * The sender (decision 027, issue 15): delivers the queued messages that are due, batch by batch.
 *
 * 1. **Claim** (one transaction): the due rows of each channel, oldest first, taken
 *    `FOR UPDATE SKIP LOCKED`, as many as the channel's rate sends in CLAIM_SECONDS. For each it
 *    decides, at the moment of sending: no consent to the channel → `skipped` with the reason
 *    (a conversation's `reply` needs none: it answers the person who just wrote); quiet hours in
 *    the organisation's time zone → a reminder or warning is held until they end (its next
 *    attempt moved there, never dropped; tokens, receipts, the welcome and replies go at once);
 *    otherwise the attempt is counted and the row **leased**: its next attempt moved LEASE_MS
 *    ahead, so no other run takes it while this one sends. All in one set-based UPDATE.
 * 2. **Send**, outside any transaction: each channel's messages through its provider,
 *    CONCURRENCY at a time, never more starts per second than the channel's rate (RateWindow).
 * 3. **Record** each chunk's answers as soon as it has them (one UPDATE from arrays, and the
 *    timeline lines in one INSERT): sent or delivered; or, after a failure, queued again after
 *    MESSAGE_RETRY_MINUTES (back-off) up to MESSAGE_MAX_ATTEMPTS, then `failed` with the
 *    provider's reason (at once when it says retrying will not help). The write holds only while
 *    the row is still this run's (queued, with the attempt count it claimed).
 *
 * Never twice: a run killed mid-send leaves its unrecorded rows leased; when the lease runs out
 * a later run sends them again **with the same message id**, which every provider gets as its
 * idempotency key (a header, the e-mail's Message-ID), so a provider that had taken one answers
 * its first result instead of sending it again. Only what was never recorded is resent, at most
 * one chunk per channel. The job is a singleton, so in normal running one sender works at a time.
 */

/** Most messages claimed per channel per batch. */
const BATCH = 1000;
/** A channel's batch is what its rate limit sends in this many seconds, so channels finish together. */
const CLAIM_SECONDS = 10;
/**
 * Answers recorded per write: what a kill could make us resend, per channel. At most a second's
 * worth at the channel's rate, so the reference a delivery report names is written before the
 * report can come (a gateway reports within seconds).
 */
const CHUNK = 250;
/** Sends in flight per channel. */
const CONCURRENCY = 16;
/** A claimed row is not taken again for this long (a run killed mid-send: its rows wait this long). */
export const LEASE_MS = 2 * 60_000;
/** A run stops taking new batches after this long; the next minute's run takes the rest. */
const RUN_BUDGET_MS = 45_000;

export interface SenderRun {
  sent: number;
  deferred: number;
  skipped: number;
  retrying: number;
  failed: number;
}

export interface SenderOptions {
  /** The rate limiter's time (tests give a fake one that sleeps instantly). */
  timer?: Timer;
  /** Abandons the run where it is, recording nothing more, as a kill would (tests). */
  signal?: AbortSignal;
  batchSize?: number;
}

/** The providers the app runs with, from the messaging settings (the simulator by default). */
export async function configuredMessageProviders(ctx: AppContext): Promise<ProviderSet> {
  return configuredProviders(ctx, await readMessagingSettings(ctx.db));
}

/**
 * Sends what is due. `providers` defaults to the configured ones (with their rate limits); a
 * single provider given (tests) serves every channel without a limit.
 */
export async function sendDueMessages(
  ctx: AppContext,
  providers?: MessageProvider | ProviderSet,
  options: SenderOptions = {},
): Promise<SenderRun> {
  const set = !providers
    ? await configuredMessageProviders(ctx)
    : 'providerFor' in providers
      ? providers
      : singleProvider(providers);
  const run: SenderRun = { sent: 0, deferred: 0, skipped: 0, retrying: 0, failed: 0 };
  const windows = new Map(
    MESSAGE_CHANNELS.map((channel) => [
      channel,
      windowFor(ctx, channel, set.ratePerSecond(channel), options.timer),
    ]),
  );
  const limits = Object.fromEntries(
    MESSAGE_CHANNELS.map((channel) => {
      const rate = set.ratePerSecond(channel);
      const batch = options.batchSize ?? BATCH;
      return [channel, Number.isFinite(rate) ? Math.max(1, Math.min(batch, rate * CLAIM_SECONDS)) : batch];
    }),
  ) as Record<MessageChannel, number>;
  const started = Date.now();
  try {
    const org = await organisation(ctx, ctx.db);
    // Batch after batch until nothing is due or the run has had its time (the next minute's run
    // goes on): a night's reminders for a large book go out in one run.
    while (Date.now() - started < RUN_BUDGET_MS) {
      const claim = await withTransaction(ctx, (tx) => claimDue(tx, org, limits));
      run.skipped += claim.skipped;
      run.deferred += claim.deferred;
      await Promise.all(
        MESSAGE_CHANNELS.map((channel) =>
          sendChannel(
            ctx,
            set.providerFor(channel),
            windows.get(channel) as RateWindow,
            claim.leased[channel],
            run,
            { ...options, rate: set.ratePerSecond(channel) },
          ),
        ),
      );
      const full = MESSAGE_CHANNELS.some((channel) => claim.taken[channel] >= limits[channel]);
      if (!full) break;
    }
  } finally {
    if (!providers) await set.close();
  }
  return run;
}

/**
 * Each app's rate windows live across runs (on real time), so a run that starts right after another
 * does not get a fresh second's worth of sends on top of the last one's. A changed rate starts a
 * new window; a test's own timer gets its own.
 */
const runningWindows = new WeakMap<AppContext, Map<MessageChannel, { rate: number; window: RateWindow }>>();

function windowFor(
  ctx: AppContext,
  channel: MessageChannel,
  rate: number,
  timer: Timer | undefined,
): RateWindow {
  if (timer) return new RateWindow(rate, timer);
  let windows = runningWindows.get(ctx);
  if (!windows) {
    windows = new Map();
    runningWindows.set(ctx, windows);
  }
  const current = windows.get(channel);
  if (current?.rate === rate) return current.window;
  const window = new RateWindow(rate, realTimer);
  windows.set(channel, { rate, window });
  return window;
}

interface Leased extends OutgoingMessage {
  attempt: number;
  contractId: string | null;
  templateKey: string;
}

interface Claim {
  taken: Record<MessageChannel, number>;
  leased: Record<MessageChannel, Leased[]>;
  skipped: number;
  deferred: number;
}

async function claimDue(
  ctx: TxContext,
  org: { timeZone: string; quietHoursStart: string; quietHoursEnd: string },
  limits: Record<MessageChannel, number>,
): Promise<Claim> {
  const now = ctx.clock.now();
  const claim: Claim = {
    taken: { sms: 0, whatsapp: 0, email: 0 },
    leased: { sms: [], whatsapp: [], email: [] },
    skipped: 0,
    deferred: 0,
  };
  // One channel after another: each takes only as many as its own rate sends in CLAIM_SECONDS.
  const rows: Awaited<ReturnType<typeof dueOf>> = [];
  for (const channel of MESSAGE_CHANNELS) rows.push(...(await dueOf(ctx, channel, limits[channel], now)));
  if (!rows.length) return claim;
  const contacts = await messageContacts(
    ctx.tx,
    rows.flatMap((row) => (row.customerId ? [row.customerId] : [])),
  );
  const quietUntil = quietHoursEnd(now, localTime(now, org.timeZone), org.quietHoursStart, org.quietHoursEnd);
  const leaseEnd = new Date(now.getTime() + LEASE_MS).toISOString();
  const decided: {
    id: string;
    status: string;
    reason: string | null;
    next: string | null;
    attempts: number;
  }[] = [];
  for (const row of rows) {
    claim.taken[row.channel] += 1;
    const contact = row.customerId ? contacts.get(row.customerId) : undefined;
    // A conversation's reply answers the person who just wrote to us (a number not yet linked to a
    // customer among them): it needs no standing consent, as a receipt needs none of its own.
    const consented = row.templateKey === 'reply' || contact?.consent[row.channel] === true;
    const recipient = row.channel === 'email' ? (contact?.email ?? row.recipient) : row.recipient;
    if (!consented || !recipient) {
      decided.push({
        id: row.id,
        status: 'skipped',
        reason: !consented
          ? `The customer has not consented to ${channelName(row.channel)} messages`
          : 'The customer has no e-mail address',
        next: null,
        attempts: row.attempts,
      });
      claim.skipped += 1;
    } else if (quietUntil && !isTransactional(row.templateKey)) {
      decided.push({
        id: row.id,
        status: 'queued',
        reason: null,
        next: quietUntil.toISOString(),
        attempts: row.attempts,
      });
      claim.deferred += 1;
    } else {
      const attempt = row.attempts + 1;
      decided.push({ id: row.id, status: 'queued', reason: null, next: leaseEnd, attempts: attempt });
      claim.leased[row.channel].push({
        id: row.id,
        channel: row.channel,
        recipient,
        body: row.body,
        subject: row.subject,
        templateKey: row.templateKey,
        contractId: row.contractId,
        attempt,
      });
    }
  }
  const col = <T>(pick: (d: (typeof decided)[number]) => T) => sql.param(decided.map(pick));
  await ctx.tx.execute(sql`
    UPDATE ${messages} m SET status = v.status, skipped_reason = v.reason, next_attempt_at = v.next::timestamptz,
           attempts = v.attempts, updated_at = ${now.toISOString()}::timestamptz
    FROM unnest(${col((d) => d.id)}::text[], ${col((d) => d.status)}::text[], ${col((d) => d.reason)}::text[],
                ${col((d) => d.next)}::text[], ${col((d) => d.attempts)}::int[]) AS v(id, status, reason, next, attempts)
    WHERE m.id = v.id`);
  return claim;
}

/** A channel's due rows, oldest first, locked (those another run holds are skipped). */
function dueOf(ctx: TxContext, channel: MessageChannel, limit: number, now: Date) {
  return ctx.tx
    .select({
      id: messages.id,
      customerId: messages.customerId,
      contractId: messages.contractId,
      channel: messages.channel,
      recipient: messages.recipient,
      templateKey: messages.templateKey,
      body: messages.body,
      subject: messages.subject,
      attempts: messages.attempts,
    })
    .from(messages)
    .where(
      and(eq(messages.status, 'queued'), eq(messages.channel, channel), lte(messages.nextAttemptAt, now)),
    )
    .orderBy(asc(messages.nextAttemptAt), asc(messages.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

interface Answer {
  message: Leased;
  result: SendResult;
}

/** One channel's leased messages: sent chunk by chunk, each chunk's answers recorded before the next. */
async function sendChannel(
  ctx: AppContext,
  provider: MessageProvider,
  window: RateWindow,
  leased: Leased[],
  run: SenderRun,
  options: SenderOptions & { rate: number },
): Promise<void> {
  const size = Math.max(1, Math.min(CHUNK, Math.ceil(options.rate)));
  for (let start = 0; start < leased.length; start += size) {
    const chunk = leased.slice(start, start + size);
    const answers: Answer[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < chunk.length; i = next++) {
        const message = chunk[i] as Leased;
        await window.take();
        if (options.signal?.aborted) return;
        const result = await provider.send(message).catch(
          (error: unknown): SendResult => ({
            ok: false,
            reason: error instanceof Error ? error.message : String(error),
            retryable: true,
          }),
        );
        answers.push({ message, result });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, chunk.length) }, worker));
    if (options.signal?.aborted) throw new Error('The sender was stopped');
    const counts = await withTransaction(ctx, (tx) => recordAnswers(tx, provider.name, answers));
    for (const key of Object.keys(counts) as (keyof SenderRun)[]) run[key] += counts[key];
  }
}

/** The answers of one chunk, written in one UPDATE, with their timeline lines in one INSERT. */
async function recordAnswers(ctx: TxContext, providerName: string, answers: Answer[]): Promise<SenderRun> {
  const counts: SenderRun = { sent: 0, deferred: 0, skipped: 0, retrying: 0, failed: 0 };
  if (!answers.length) return counts;
  const now = ctx.clock.now();
  const at = now.toISOString();
  const rows = answers.map(({ message, result }) => {
    if (result.ok)
      return {
        id: message.id,
        attempts: message.attempt,
        status: result.delivered ? 'delivered' : 'sent',
        reference: result.providerReference,
        reason: null,
        next: null,
        deliveredAt: result.delivered ? at : null,
      };
    const retry = result.retryable && message.attempt < MESSAGE_MAX_ATTEMPTS;
    const minutes = MESSAGE_RETRY_MINUTES[message.attempt - 1] ?? MESSAGE_RETRY_MINUTES.at(-1) ?? 1;
    return {
      id: message.id,
      attempts: message.attempt,
      status: retry ? 'queued' : 'failed',
      reference: null,
      reason: result.reason.slice(0, 1000),
      next: retry ? new Date(now.getTime() + minutes * 60_000).toISOString() : null,
      deliveredAt: null,
    };
  });
  const col = <T>(pick: (r: (typeof rows)[number]) => T) => sql.param(rows.map(pick));
  const written = await queryRows<{ id: string }>(
    ctx.tx,
    sql`
    UPDATE ${messages} m SET status = v.status, provider = ${providerName},
           provider_reference = coalesce(v.reference, m.provider_reference),
           failure_reason = coalesce(v.reason, m.failure_reason), next_attempt_at = v.next::timestamptz,
           sent_at = CASE WHEN v.status IN ('sent', 'delivered') THEN ${at}::timestamptz ELSE m.sent_at END,
           delivered_at = v.delivered_at::timestamptz, updated_at = ${at}::timestamptz
    FROM unnest(${col((r) => r.id)}::text[], ${col((r) => r.attempts)}::int[], ${col((r) => r.status)}::text[],
                ${col((r) => r.reference)}::text[], ${col((r) => r.reason)}::text[], ${col((r) => r.next)}::text[],
                ${col((r) => r.deliveredAt)}::text[])
         AS v(id, attempts, status, reference, reason, next, delivered_at)
    WHERE m.id = v.id AND m.status = 'queued' AND m.attempts = v.attempts
    RETURNING m.id`,
  );
  // A row another run took over after our lease ran out is that run's to record.
  const ours = new Set(written.map((row) => row.id));
  const events: { contractId: string; type: string; message: string; data: unknown }[] = [];
  rows.forEach((row, i) => {
    if (!ours.has(row.id)) return;
    const { message } = answers[i] as Answer;
    const result = (answers[i] as Answer).result;
    const label = templateLabel(message.templateKey);
    const channel = channelName(message.channel);
    const data = { messageId: message.id, template: message.templateKey, attempts: message.attempt };
    if (row.status === 'queued') counts.retrying += 1;
    else if (row.status === 'failed') counts.failed += 1;
    else counts.sent += 1;
    if (!message.contractId || row.status === 'queued') return;
    events.push(
      row.status === 'failed'
        ? {
            contractId: message.contractId,
            type: 'message_failed',
            message: `${label} by ${channel} failed after ${message.attempt} attempt${message.attempt === 1 ? '' : 's'}: ${result.ok ? '' : result.reason}`,
            data,
          }
        : {
            contractId: message.contractId,
            type: 'message_sent',
            message: `${label} sent by ${channel}`,
            data,
          },
    );
  });
  await addEvents(ctx, SYSTEM_ACTOR, events);
  return counts;
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
  description:
    'Delivers the queued customer messages that are due (consent, quiet hours, rate limits, retries)',
  payload: z.object({}),
  schedule: { whenChanged: dueMessagesKey },
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  singletonKey: 'messages.send',
  run: async (ctx) => ({ ...(await sendDueMessages(ctx)) }),
});
