import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Segment, SegmentBody, SegmentFilter } from '../../../contracts/communications';
import { segmentFilterSchema } from '../../../contracts/communications';
import { queryRows } from '../../../db/client';
import { contracts, customers, deviceModels, devices, segments } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { type ArrearsDay, arrearsDay } from '../../business-date';
import type { AppServices, Executor, TxContext } from '../../context';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { dpdOn, figuresJoin, inBucketOn } from '../contracts/figures';

/**
 * Segments (issue 15 "Sends"): a saved filter over customers and their contracts. A customer is
 * in one when they match its customer parts (region, agent) and, if it has contract parts
 * (bucket, DPD range, plan, product), one of their live contracts (active or defaulted) matches
 * them all; a tags part holds a customer with any one of its tags. The condition is SQL
 * over `customers cu`, for the count, the preview and the bulk send's one INSERT … SELECT.
 */

const LIVE = sql`('active', 'defaulted')`;

const textArray = (values: readonly string[]) => sql`${sql.param([...values])}::text[]`;

/** The segment's condition on `cu` (a customers row), its contracts' arrears as of `day` (decision 054). */
export function segmentCondition(filter: SegmentFilter, day: ArrearsDay): SQL {
  const parts: SQL[] = [];
  if (filter.regions?.length) parts.push(sql`cu.region = ANY(${textArray(filter.regions)})`);
  if (filter.agentIds?.length) parts.push(sql`cu.assigned_agent_id = ANY(${textArray(filter.agentIds)})`);
  if (filter.tags?.length) parts.push(sql`cu.tags && ${textArray(filter.tags)}`);
  const onContract: SQL[] = [];
  const sf = sql`sf`;
  if (filter.buckets?.length)
    onContract.push(
      sql`(${sql.join(
        filter.buckets.map((bucket) => inBucketOn(day.buckets, bucket, day.date, sf)),
        sql` OR `,
      )})`,
    );
  if (filter.dpdMin !== undefined) onContract.push(sql`${dpdOn(day.date, sf)} >= ${filter.dpdMin}`);
  if (filter.dpdMax !== undefined) onContract.push(sql`${dpdOn(day.date, sf)} <= ${filter.dpdMax}`);
  if (filter.planIds?.length) onContract.push(sql`sc.plan_id = ANY(${textArray(filter.planIds)})`);
  if (filter.deviceModelIds?.length || filter.categories?.length) {
    const product: SQL[] = [];
    if (filter.deviceModelIds?.length)
      product.push(sql`sd.model_id = ANY(${textArray(filter.deviceModelIds)})`);
    if (filter.categories?.length) product.push(sql`sm.category = ANY(${textArray(filter.categories)})`);
    onContract.push(sql`EXISTS (SELECT 1 FROM ${devices} sd JOIN ${deviceModels} sm ON sm.id = sd.model_id
                               WHERE sd.id = sc.device_id AND ${sql.join(product, sql` AND `)})`);
  }
  if (onContract.length)
    parts.push(sql`EXISTS (SELECT 1 FROM ${contracts} sc ${figuresJoin(sql`sc`, sql`sf`)} WHERE sc.customer_id = cu.id AND sc.status IN ${LIVE}
                           AND ${sql.join(onContract, sql` AND `)})`);
  return parts.length ? sql.join(parts, sql` AND `) : sql`TRUE`;
}

/** How many customers a filter holds. */
export async function countSegment(
  executor: Executor,
  filter: SegmentFilter,
  day: ArrearsDay,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM ${customers} cu WHERE ${segmentCondition(filter, day)}`,
  );
  return row?.n ?? 0;
}

type SegmentRow = typeof segments.$inferSelect;

async function present(executor: Executor, row: SegmentRow, day: ArrearsDay): Promise<Segment> {
  const filter = segmentFilterSchema.parse(row.filter);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    filter,
    customers: await countSegment(executor, filter, day),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listSegments(ctx: AppServices, executor: Executor): Promise<Segment[]> {
  const day = await arrearsDay(ctx, executor);
  const rows = await executor.select().from(segments).orderBy(asc(segments.name));
  const out: Segment[] = [];
  for (const row of rows) out.push(await present(executor, row, day));
  return out;
}

export async function findSegment(executor: Executor, id: string): Promise<SegmentRow> {
  const [row] = await executor.select().from(segments).where(eq(segments.id, id));
  if (!row) throw notFound('Segment not found');
  return row;
}

async function nameTaken(executor: Executor, name: string, except?: string): Promise<void> {
  const rows = await queryRows<{ id: string }>(
    executor,
    sql`SELECT id FROM ${segments} WHERE lower(name) = lower(${name})${except ? sql` AND id <> ${except}` : sql``}`,
  );
  if (rows.length) throw conflict(`A segment is already called "${name}"`);
}

export async function createSegment(ctx: TxContext, actor: Actor, input: SegmentBody): Promise<Segment> {
  await nameTaken(ctx.tx, input.name);
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(segments)
    .values({
      id: newId(),
      name: input.name,
      description: input.description ?? null,
      filter: input.filter,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw notFound('Segment not found');
  await writeAudit(ctx.tx, actor, {
    action: 'segment.create',
    entityType: 'segment',
    entityId: row.id,
    after: { name: row.name, filter: row.filter },
  });
  return present(ctx.tx, row, await arrearsDay(ctx, ctx.tx));
}

export async function updateSegment(
  ctx: TxContext,
  actor: Actor,
  id: string,
  input: SegmentBody,
): Promise<Segment> {
  const before = await findSegment(ctx.tx, id);
  await nameTaken(ctx.tx, input.name, id);
  const [row] = await ctx.tx
    .update(segments)
    .set({
      name: input.name,
      description: input.description ?? null,
      filter: input.filter,
      updatedAt: ctx.clock.now(),
    })
    .where(eq(segments.id, id))
    .returning();
  if (!row) throw notFound('Segment not found');
  await writeAudit(ctx.tx, actor, {
    action: 'segment.update',
    entityType: 'segment',
    entityId: id,
    before: { name: before.name, filter: before.filter },
    after: { name: row.name, filter: row.filter },
  });
  return present(ctx.tx, row, await arrearsDay(ctx, ctx.tx));
}

/** Bulk sends made from it keep their own copy of the filter (the foreign key sets null). */
export async function deleteSegment(ctx: TxContext, actor: Actor, id: string): Promise<void> {
  const before = await findSegment(ctx.tx, id);
  await ctx.tx.delete(segments).where(eq(segments.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'segment.delete',
    entityType: 'segment',
    entityId: id,
    before: { name: before.name, filter: before.filter },
  });
}
