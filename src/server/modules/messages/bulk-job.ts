import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { SegmentFilter } from '../../../contracts/communications';
import type { MessageChannel } from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { bulkSends, messages, messageTemplates } from '../../../db/schema';
import type { AppContext, TxContext } from '../../context';
import { defineJob } from '../../jobs/definition';
import { withTransaction } from '../../transaction';
import { consentCondition } from './bulk-send';
import { DEFAULT_LANGUAGE } from './outbox';
import { recipientContext, recipientRowsSql } from './preview';
import { segmentCondition } from './segments';

/**
 * The bulk send's queueing (issue 15): when a bulk send's time comes, one INSERT … SELECT puts a
 * message for each consenting customer of its filter in the outbox, rendered in SQL by
 * `render_message` from the template in the customer's language or else English (the rule of
 * `templateFor`), each due `floor(n × 60 / rate)` seconds after the start so the provider's limit
 * holds. The dedupe key `bulk:<bulk id>:<customer id>` makes a re-run (a restart mid-way, a second
 * instance) queue nobody twice; the row is claimed FOR UPDATE SKIP LOCKED, so two instances never
 * work on the same send at once.
 */

interface DueBulk {
  id: string;
  filter: SegmentFilter;
  template_key: string;
  channel: MessageChannel;
  scheduled_at: string;
  rate_per_minute: number;
  created_by: string | null;
}

/** Queues one bulk send's messages; answers how many were queued now. */
export async function queueBulkSend(ctx: TxContext, bulk: DueBulk): Promise<number> {
  const now = ctx.clock.now();
  const start = new Date(Math.max(now.getTime(), new Date(bulk.scheduled_at).getTime())).toISOString();
  const input = await recipientContext(ctx, ctx.tx);
  const recipients = recipientRowsSql({
    ...input,
    where: sql`${segmentCondition(bulk.filter)} AND ${consentCondition(bulk.channel)}`,
  });
  const address = bulk.channel === 'email' ? sql`x.email` : sql`x.phone`;
  const pick = (column: string) =>
    sql.raw(`CASE WHEN tl.key IS NOT NULL THEN tl.${column} ELSE te.${column} END`);
  const nowIso = now.toISOString();
  const [row] = await queryRows<{ n: number }>(
    ctx.tx,
    sql`
    WITH x AS (
      SELECT r.*, row_number() OVER (ORDER BY r.customer_id) - 1 AS n FROM (${recipients}) r
    ), queued AS (
      INSERT INTO ${messages} (id, customer_id, contract_id, channel, recipient, template_key, template_version,
                               body, subject, status, next_attempt_at, bulk_send_id, source_type, source_id,
                               dedupe_key, created_by, created_at, updated_at)
      SELECT gen_random_uuid()::text, x.customer_id, x.contract_id, ${bulk.channel}, ${address}, te.key,
             ${pick('version')}, render_message(${pick('body')}, x.vars),
             CASE WHEN ${pick('subject')} IS NULL THEN NULL ELSE render_message(${pick('subject')}, x.vars) END,
             'queued', ${start}::timestamptz + floor(x.n * 60.0 / ${bulk.rate_per_minute}::int) * interval '1 second',
             ${bulk.id}, 'bulk_send', ${bulk.id}, 'bulk:' || ${bulk.id}::text || ':' || x.customer_id,
             ${bulk.created_by}::text, ${nowIso}::timestamptz, ${nowIso}::timestamptz
      FROM x
      JOIN ${messageTemplates} te ON te.key = ${bulk.template_key} AND te.channel = ${bulk.channel}
                                 AND te.language = ${DEFAULT_LANGUAGE}
      LEFT JOIN ${messageTemplates} tl ON tl.key = ${bulk.template_key} AND tl.channel = ${bulk.channel}
                                      AND tl.language = x.language
      WHERE ${address} IS NOT NULL
      ON CONFLICT (dedupe_key) DO NOTHING
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM queued`,
  );
  return row?.n ?? 0;
}

/** Claims the first due bulk send no other instance holds and queues it; null when none is due. */
async function queueNextDue(ctx: AppContext): Promise<number | null> {
  return withTransaction(ctx, async (tx) => {
    const [bulk] = await queryRows<DueBulk>(
      tx.tx,
      sql`SELECT id, filter, template_key, channel, to_json(scheduled_at) #>> '{}' AS scheduled_at,
                 rate_per_minute, created_by
          FROM ${bulkSends} WHERE status = 'scheduled' AND scheduled_at <= ${tx.clock.now().toISOString()}::timestamptz
          ORDER BY scheduled_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    if (!bulk) return null;
    const queued = await queueBulkSend(tx, bulk);
    // The count of the outbox, not of this run: a re-run after a restart adds none and says so.
    await tx.tx.execute(
      sql`UPDATE ${bulkSends} SET status = 'queued', queued_at = ${tx.clock.now().toISOString()}::timestamptz,
                 queued = (SELECT count(*) FROM ${messages} WHERE bulk_send_id = ${bulk.id})
          WHERE id = ${bulk.id}`,
    );
    return queued;
  });
}

/** Every bulk send that is due, one after another. */
export async function queueDueBulkSends(ctx: AppContext): Promise<{ bulkSends: number; queued: number }> {
  const run = { bulkSends: 0, queued: 0 };
  for (;;) {
    const queued = await queueNextDue(ctx);
    if (queued === null) return run;
    run.bulkSends += 1;
    run.queued += queued;
  }
}

/** The current minute while a bulk send is due, 'idle' otherwise: a run each minute there is work. */
export async function dueBulkSendsKey(ctx: AppContext): Promise<string> {
  const now = ctx.clock.now();
  const rows = await queryRows<{ id: string }>(
    ctx.db,
    sql`SELECT id FROM ${bulkSends} WHERE status = 'scheduled' AND scheduled_at <= ${now.toISOString()}::timestamptz LIMIT 1`,
  );
  return rows.length ? now.toISOString().slice(0, 16) : 'idle';
}

export const bulkQueueJob = defineJob({
  name: 'messages.bulk-queue',
  description: 'Queues the bulk sends that are due: one statement each, spread by their rate',
  payload: z.object({}),
  schedule: { whenChanged: dueBulkSendsKey },
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  singletonKey: 'messages.bulk-queue',
  run: async (ctx) => ({ ...(await queueDueBulkSends(ctx)) }),
});
