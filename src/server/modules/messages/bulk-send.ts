import { eq, type SQL, sql } from 'drizzle-orm';
import type { BulkPreview, BulkSend, BulkSendBody, SegmentFilter } from '../../../contracts/communications';
import { ERROR_CODES } from '../../../contracts/errors';
import { isTransactional, type MessageChannel, TEMPLATE_KEYS } from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { bulkSends, customers, messages, segments } from '../../../db/schema';
import { renderTemplate } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { type ArrearsDay, arrearsDay } from '../../business-date';
import type { AppServices, Executor, TxContext } from '../../context';
import { localTime } from '../../dates';
import { AppError, conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { messagingFigures, recipientOf, smsEstimate, templateFor } from './preview';
import { quietHoursEnd } from './quiet-hours';
import { findSegment, segmentCondition } from './segments';

/**
 * Bulk sends (issue 15 "Sends"): a template staff created, to a segment, now or later, throttled
 * to `rate_per_minute` (the provider's rate by default). Before it is confirmed the preview
 * counts who will receive it, who is left out for want of consent to the channel, and how many
 * would wait for quiet hours at the time they are due. Confirming writes the `bulk_sends` row;
 * the `messages.bulk-queue` job (bulk-job.ts) queues it when its time comes, in one statement.
 * The sender still checks consent and quiet hours as each message goes.
 */

const invalid = (field: string, message: string) =>
  new AppError(422, ERROR_CODES.VALIDATION, message, [{ field, message }]);

/** The condition on `cu` for having consented to the channel (and, for e-mail, an address). */
export function consentCondition(channel: MessageChannel): SQL {
  if (channel === 'sms') return sql`cu.consent_sms_at IS NOT NULL`;
  if (channel === 'whatsapp') return sql`cu.consent_whatsapp_at IS NOT NULL`;
  return sql`(cu.consent_email_at IS NOT NULL AND cu.email IS NOT NULL)`;
}

/** The seconds after the start that the n-th recipient (from 0) is due: `rate` a minute. */
export const spreadSeconds = (n: number, ratePerMinute: number) => Math.floor((n * 60) / ratePerMinute);

interface Resolved {
  filter: SegmentFilter;
  day: ArrearsDay;
  segmentId: string | null;
  channel: MessageChannel;
  templateKey: string;
  scheduledAt: Date;
  ratePerMinute: number;
}

async function resolve(ctx: AppServices, executor: Executor, input: BulkSendBody): Promise<Resolved> {
  const channel = input.channel ?? 'sms';
  let filter: SegmentFilter;
  if (input.segmentId) filter = (await findSegment(executor, input.segmentId)).filter as SegmentFilter;
  else if (input.filter) filter = input.filter;
  else throw invalid('segmentId', 'Choose a segment');
  if ((TEMPLATE_KEYS as readonly string[]).includes(input.templateKey))
    throw invalid('templateKey', 'Built-in templates are sent by the events they belong to; choose another');
  if (!(await templateFor(executor, input.templateKey, channel, 'en')))
    throw invalid('templateKey', `The template has no English ${channel} text`);
  const now = ctx.clock.now();
  const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : now;
  if (scheduledAt.getTime() < now.getTime() - 60_000)
    throw invalid('scheduledAt', 'Choose a time from now on');
  const ratePerMinute = input.ratePerMinute ?? (await messagingFigures(executor)).ratePerMinute[channel];
  return {
    filter,
    day: await arrearsDay(ctx, executor),
    segmentId: input.segmentId ?? null,
    channel,
    templateKey: input.templateKey,
    scheduledAt: new Date(Math.max(scheduledAt.getTime(), now.getTime())),
    ratePerMinute,
  };
}

/**
 * Of `recipients` spread from `start` at `rate` a minute, how many fall in quiet hours (a
 * template that is not transactional waits for them to end) and when the first held one goes.
 */
async function quietHoursHold(
  ctx: AppServices,
  executor: Executor,
  r: Resolved,
  recipients: number,
): Promise<{ held: number; until: Date | null }> {
  if (!recipients || isTransactional(r.templateKey)) return { held: 0, until: null };
  const org = await organisation(ctx, executor);
  let held = 0;
  let until: Date | null = null;
  const minutes = Math.ceil(recipients / r.ratePerMinute);
  for (let m = 0; m < minutes; m += 1) {
    const at = new Date(r.scheduledAt.getTime() + m * 60_000);
    const end = quietHoursEnd(at, localTime(at, org.timeZone), org.quietHoursStart, org.quietHoursEnd);
    if (!end) continue;
    const inMinute =
      Math.min(recipients, Math.ceil((m + 1) * r.ratePerMinute)) -
      Math.min(recipients, Math.ceil(m * r.ratePerMinute));
    held += inMinute;
    until ??= end;
  }
  return { held, until };
}

async function counts(executor: Executor, r: Resolved) {
  const [row] = await queryRows<{ in_segment: number; recipients: number; first: string | null }>(
    executor,
    sql`SELECT count(*)::int AS in_segment, count(*) FILTER (WHERE ${consentCondition(r.channel)})::int AS recipients,
               min(cu.id) FILTER (WHERE ${consentCondition(r.channel)}) AS first
        FROM ${customers} cu WHERE ${segmentCondition(r.filter, r.day)}`,
  );
  return { inSegment: row?.in_segment ?? 0, recipients: row?.recipients ?? 0, first: row?.first ?? null };
}

export async function previewBulkSend(
  ctx: AppServices,
  executor: Executor,
  input: BulkSendBody,
): Promise<BulkPreview> {
  const r = await resolve(ctx, executor, input);
  const counted = await counts(executor, r);
  const hold = await quietHoursHold(ctx, executor, r, counted.recipients);
  let sample: BulkPreview['sample'] = null;
  let sms: BulkPreview['sms'] = null;
  if (counted.first) {
    const recipient = await recipientOf(ctx, executor, counted.first);
    const template = await templateFor(executor, r.templateKey, r.channel, recipient.language);
    if (template) {
      const body = renderTemplate(template.body, recipient.vars);
      sample = { body, customerName: recipient.name };
      if (r.channel === 'sms') {
        const { costPerSegment } = await messagingFigures(executor);
        sms = smsEstimate(body, costPerSegment, (await organisation(ctx, executor)).currency);
      }
    }
  }
  const lastOffset = counted.recipients ? spreadSeconds(counted.recipients - 1, r.ratePerMinute) : 0;
  return {
    inSegment: counted.inSegment,
    recipients: counted.recipients,
    excludedConsent: counted.inSegment - counted.recipients,
    heldByQuietHours: hold.held,
    heldUntil: hold.until?.toISOString() ?? null,
    ratePerMinute: r.ratePerMinute,
    scheduledAt: r.scheduledAt.toISOString(),
    lastAt: new Date(r.scheduledAt.getTime() + lastOffset * 1000).toISOString(),
    sample,
    sms,
    // The sample's segments for each recipient: other recipients' figures may differ a little.
    totalCostMinor: (sms?.costMinor ?? 0) * counted.recipients,
  };
}

export async function createBulkSend(ctx: TxContext, actor: Actor, input: BulkSendBody): Promise<BulkSend> {
  const r = await resolve(ctx, ctx.tx, input);
  const counted = await counts(ctx.tx, r);
  const id = newId();
  const now = ctx.clock.now();
  await ctx.tx.insert(bulkSends).values({
    id,
    name: input.name,
    segmentId: r.segmentId,
    filter: r.filter,
    templateKey: r.templateKey,
    channel: r.channel,
    scheduledAt: r.scheduledAt,
    ratePerMinute: r.ratePerMinute,
    status: 'scheduled',
    recipients: counted.recipients,
    excludedConsent: counted.inSegment - counted.recipients,
    createdBy: actor.id,
    createdAt: now,
  });
  await writeAudit(ctx.tx, actor, {
    action: 'bulk_send.create',
    entityType: 'bulk_send',
    entityId: id,
    after: {
      name: input.name,
      templateKey: r.templateKey,
      channel: r.channel,
      scheduledAt: r.scheduledAt.toISOString(),
      ratePerMinute: r.ratePerMinute,
      recipients: counted.recipients,
      excludedConsent: counted.inSegment - counted.recipients,
    },
  });
  return bulkSendById(ctx.tx, id);
}

export async function cancelBulkSend(ctx: TxContext, actor: Actor, id: string): Promise<BulkSend> {
  const [row] = await ctx.tx.select().from(bulkSends).where(eq(bulkSends.id, id)).for('update');
  if (!row) throw notFound('Bulk send not found');
  if (row.status !== 'scheduled')
    throw conflict(
      row.status === 'queued' ? 'This send has been queued already' : 'This send was cancelled already',
    );
  await ctx.tx
    .update(bulkSends)
    .set({ status: 'cancelled', cancelledAt: ctx.clock.now() })
    .where(eq(bulkSends.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'bulk_send.cancel',
    entityType: 'bulk_send',
    entityId: id,
    before: { status: row.status, scheduledAt: row.scheduledAt.toISOString() },
    after: { status: 'cancelled' },
  });
  return bulkSendById(ctx.tx, id);
}

interface BulkRow {
  id: string;
  name: string;
  segment_id: string | null;
  segment_name: string | null;
  template_key: string;
  channel: MessageChannel;
  scheduled_at: string;
  rate_per_minute: number;
  status: BulkSend['status'];
  recipients: number;
  excluded_consent: number;
  queued: number;
  created_at: string;
  queued_at: string | null;
  cancelled_at: string | null;
  p_queued: number;
  p_sent: number;
  p_delivered: number;
  p_failed: number;
  p_skipped: number;
}

const iso = (column: SQL) => sql`to_json(${column}) #>> '{}'`;

async function selectBulkSends(executor: Executor, where: SQL): Promise<BulkSend[]> {
  const rows = await queryRows<BulkRow>(
    executor,
    sql`SELECT b.id, b.name, b.segment_id, s.name AS segment_name, b.template_key, b.channel,
               ${iso(sql`b.scheduled_at`)} AS scheduled_at, b.rate_per_minute, b.status, b.recipients,
               b.excluded_consent, b.queued, ${iso(sql`b.created_at`)} AS created_at,
               ${iso(sql`b.queued_at`)} AS queued_at, ${iso(sql`b.cancelled_at`)} AS cancelled_at,
               coalesce(p.queued, 0)::int AS p_queued, coalesce(p.sent, 0)::int AS p_sent,
               coalesce(p.delivered, 0)::int AS p_delivered, coalesce(p.failed, 0)::int AS p_failed,
               coalesce(p.skipped, 0)::int AS p_skipped
        FROM ${bulkSends} b
        LEFT JOIN ${segments} s ON s.id = b.segment_id
        LEFT JOIN LATERAL (
          SELECT count(*) FILTER (WHERE m.status = 'queued') AS queued,
                 count(*) FILTER (WHERE m.status = 'sent') AS sent,
                 count(*) FILTER (WHERE m.status = 'delivered') AS delivered,
                 count(*) FILTER (WHERE m.status = 'failed') AS failed,
                 count(*) FILTER (WHERE m.status = 'skipped') AS skipped
          FROM ${messages} m WHERE m.bulk_send_id = b.id) p ON TRUE
        WHERE ${where}
        ORDER BY b.created_at DESC, b.id DESC LIMIT 200`,
  );
  const at = (value: string | null) => (value === null ? null : new Date(value).toISOString());
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    segmentId: row.segment_id,
    segmentName: row.segment_name,
    templateKey: row.template_key,
    channel: row.channel,
    scheduledAt: at(row.scheduled_at) as string,
    ratePerMinute: row.rate_per_minute,
    status: row.status,
    recipients: row.recipients,
    excludedConsent: row.excluded_consent,
    queued: row.queued,
    progress: {
      queued: row.p_queued,
      sent: row.p_sent,
      delivered: row.p_delivered,
      failed: row.p_failed,
      skipped: row.p_skipped,
    },
    createdAt: at(row.created_at) as string,
    queuedAt: at(row.queued_at),
    cancelledAt: at(row.cancelled_at),
  }));
}

/** The latest bulk sends (200), newest first, with their progress from the outbox. */
export function listBulkSends(executor: Executor): Promise<BulkSend[]> {
  return selectBulkSends(executor, sql`TRUE`);
}

export async function bulkSendById(executor: Executor, id: string): Promise<BulkSend> {
  const [row] = await selectBulkSends(executor, sql`b.id = ${id}`);
  if (!row) throw notFound('Bulk send not found');
  return row;
}
