import { and, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { SegmentFilter } from '../../../contracts/communications';
import { CUSTOM_TEMPLATE_VARIABLES, type MessageChannel } from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import { bulkSends, messages, messageTemplates } from '../../../db/schema';
import { arrearsDay } from '../../business-date';
import type { AppContext, TxContext } from '../../context';
import { defineJob } from '../../jobs/definition';
import { withTransaction } from '../../transaction';
import { consentCondition } from './bulk-send';
import { DEFAULT_LANGUAGE } from './outbox';
import { recipientColumnsSql, recipientContext } from './preview';
import { segmentCondition } from './segments';
import { templateSql } from './values-sql';

/**
 * The bulk send's queueing (issue 15): when a bulk send's time comes, one INSERT … SELECT puts a
 * message for each consenting customer of its filter in the outbox, rendered in SQL from the
 * template in the customer's language or else English (the rule of `templateFor`), the template
 * compiled once into one text expression (`templateSql`), each due `floor(n × 60 / rate)` seconds
 * after the start so the provider's limit holds. The dedupe key `bulk:<bulk id>:<customer id>`
 * makes a re-run (a restart mid-way, a second instance) queue nobody twice; the row is claimed
 * FOR UPDATE SKIP LOCKED, so two instances never work on the same send at once.
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

type TemplateRow = typeof messageTemplates.$inferSelect;

/** A template over the recipient's variable columns (`x."firstName"`), each never null. */
const bulkTemplateSql = (text: string): SQL =>
  templateSql(text, CUSTOM_TEMPLATE_VARIABLES, (name) => sql`x.${sql.identifier(name)}`);

/** The customer's language's value, else English's (the rule of `templateFor`). */
function byLanguage(rows: TemplateRow[], english: TemplateRow, value: (row: TemplateRow) => SQL): SQL {
  const others = rows.filter((row) => row.language !== DEFAULT_LANGUAGE);
  if (!others.length) return value(english);
  const cases = others.map((row) => sql`WHEN ${row.language}::text THEN ${value(row)}`);
  return sql`CASE x.language ${sql.join(cases, sql` `)} ELSE ${value(english)} END`;
}

/** Queues one bulk send's messages; answers how many were queued now. */
export async function queueBulkSend(ctx: TxContext, bulk: DueBulk): Promise<number> {
  const now = ctx.clock.now();
  const start = new Date(Math.max(now.getTime(), new Date(bulk.scheduled_at).getTime())).toISOString();
  const rows = await ctx.tx
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.key, bulk.template_key), eq(messageTemplates.channel, bulk.channel)));
  const english = rows.find((row) => row.language === DEFAULT_LANGUAGE);
  // Without its English text (deleted since it was confirmed) nobody can be sent it.
  if (!english) return 0;
  const input = await recipientContext(ctx, ctx.tx);
  const recipients = recipientColumnsSql({
    ...input,
    where: sql`${segmentCondition(bulk.filter, await arrearsDay(ctx, ctx.tx))} AND ${consentCondition(bulk.channel)}`,
  });
  const address = bulk.channel === 'email' ? sql`x.email` : sql`x.phone`;
  const body = byLanguage(rows, english, (row) => bulkTemplateSql(row.body));
  const subject = byLanguage(rows, english, (row) =>
    row.subject ? bulkTemplateSql(row.subject) : sql`NULL::text`,
  );
  const version = byLanguage(rows, english, (row) => sql`${row.version}::int`);
  const nowIso = now.toISOString();
  // One statement over every recipient: compiling it to machine code (JIT) costs more than it saves
  // (half a second on 100,000 rows), and caching each contract's instalment sums (memoize) never
  // hits, one contract per customer. Both settings end with this transaction.
  await ctx.tx.execute(sql`SET LOCAL jit = off`);
  await ctx.tx.execute(sql`SET LOCAL enable_memoize = off`);
  const [row] = await queryRows<{ n: number }>(
    ctx.tx,
    sql`
    WITH x AS (
      SELECT r.*, row_number() OVER (ORDER BY r.customer_id) - 1 AS n FROM (${recipients}) r
    ), queued AS (
      INSERT INTO ${messages} (id, customer_id, contract_id, channel, recipient, template_key, template_version,
                               body, subject, status, next_attempt_at, bulk_send_id, source_type, source_id,
                               dedupe_key, created_by, created_at, updated_at)
      SELECT new_row_id(), x.customer_id, x.contract_id, ${bulk.channel}, ${address}, ${bulk.template_key},
             ${version}, ${body}, ${subject},
             'queued', ${start}::timestamptz + floor(x.n * 60.0 / ${bulk.rate_per_minute}::int) * interval '1 second',
             ${bulk.id}, 'bulk_send', ${bulk.id}, 'bulk:' || ${bulk.id}::text || ':' || x.customer_id,
             ${bulk.created_by}::text, ${nowIso}::timestamptz, ${nowIso}::timestamptz
      FROM x
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
