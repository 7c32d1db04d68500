import { and, asc, count, desc, eq, gte, type SQL, sql } from 'drizzle-orm';
import { type ContractRow, contractPageSchema } from '../../../contracts/contracts';
import type { Page } from '../../../contracts/lists';
import { contracts, customers, deviceModels, devices, servicePlans } from '../../../db/schema';
import type { Bucket } from '../../../domain';
import type { AppContext } from '../../context';
import { offsetOf, searchCondition, withinDays } from '../../lists';
import { customerSearchCondition } from '../customers/service';
import { organisation } from '../settings/service';
import { contractPageCache, contractTotalsCache } from './list-cache';

/** The organisation's bucket lower bounds (1, 8, 31, ...) as labelled DPD ranges. */
export function bucketsFrom(bounds: readonly number[]): Bucket[] {
  const buckets: Bucket[] = [{ label: 'current', min: 0, max: 0 }];
  bounds.forEach((min, index) => {
    const next = bounds[index + 1];
    buckets.push({
      label: next === undefined ? `${min}+` : `${min}-${next - 1}`,
      min,
      max: next === undefined ? null : next - 1,
    });
  });
  return buckets;
}

/**
 * Sort keys as index-friendly orderings: the id breaks ties in the same direction, so each one is
 * a scan of an index (migration 0004) read forwards or backwards; the number is unique.
 */
const SORTS = {
  createdAt: [contracts.createdAt, contracts.id],
  number: [contracts.number],
  dpd: [contracts.dpd, contracts.id],
  outstanding: [contracts.outstandingTotal, contracts.id],
  activatedAt: [contracts.activatedAt, contracts.id],
} as const;

export interface ContractListQuery {
  q?: string | undefined;
  status?: ContractRow['status'] | undefined;
  bucket?: string | undefined;
  customerId?: string | undefined;
  planId?: string | undefined;
  minDpd?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  sort: keyof typeof SORTS;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/**
 * Contracts whose number, customer (names, account, phone, ID) or device (serial, IMEI) matches:
 * three indexed searches united, rather than one OR across a join that no index can serve.
 */
function searchMatches(q: string): SQL {
  const byNumber = searchCondition(sql`lower(${contracts.number})`, q);
  const byDevice = searchCondition(devices.searchText, q);
  return sql`${contracts.id} IN (
    SELECT ${contracts.id} FROM ${contracts} WHERE ${byNumber}
    UNION
    SELECT ${contracts.id} FROM ${contracts} JOIN ${customers} ON ${customers.id} = ${contracts.customerId}
    WHERE ${customerSearchCondition(q)}
    UNION
    SELECT ${contracts.id} FROM ${contracts} JOIN ${devices} ON ${devices.id} = ${contracts.deviceId}
    WHERE ${byDevice})`;
}

/**
 * A page as the JSON bytes the API sends, validated against the response schema once and then
 * cached per instance until a contract, customer or device changes (list-cache.ts).
 */
export function contractPageJson(ctx: AppContext, query: ContractListQuery): Promise<Buffer> {
  return contractPageCache(ctx).get(JSON.stringify(query), async () =>
    Buffer.from(JSON.stringify(contractPageSchema.parse(await listContracts(ctx, query)))),
  );
}

/** The list convention (src/contracts/lists.ts): one page, or (with `limit`) every match for an export. */
export async function listContracts(
  ctx: AppContext,
  query: ContractListQuery,
  limit?: number,
): Promise<Page<ContractRow>> {
  const { timeZone } = await organisation(ctx);
  const conditions: SQL[] = [];
  if (query.q) conditions.push(searchMatches(query.q));
  if (query.status) conditions.push(eq(contracts.status, query.status));
  if (query.bucket) conditions.push(eq(contracts.bucket, query.bucket));
  if (query.customerId) conditions.push(eq(contracts.customerId, query.customerId));
  if (query.planId) conditions.push(eq(contracts.planId, query.planId));
  if (query.minDpd !== undefined) conditions.push(gte(contracts.dpd, query.minDpd));
  conditions.push(...withinDays(contracts.createdAt, query.from, query.to, timeZone));
  const where = conditions.length ? and(...conditions) : undefined;
  const direction = query.order === 'asc' ? asc : desc;
  // Contracts not yet activated come last whichever way activation dates are sorted.
  const nulls = query.sort === 'activatedAt' ? sql` NULLS LAST` : sql``;
  const pageSize = limit ?? query.pageSize;
  const totalKey = JSON.stringify([
    query.q,
    query.status,
    query.bucket,
    query.customerId,
    query.planId,
    query.minDpd,
    query.from,
    query.to,
    timeZone,
  ]);
  const order = SORTS[query.sort].map((column) => sql`${direction(column)}${nulls}`);
  // The page's ids first, from the contracts table and its indexes alone; then the joins for
  // those rows only (joining before the offset would join every skipped row too).
  const page = ctx.db
    .select({ id: contracts.id })
    .from(contracts)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset(limit ? 0 : offsetOf(query.page, query.pageSize))
    .as('page');
  const [rows, total] = await Promise.all([
    ctx.db
      .select({
        contract: contracts,
        customerName: sql<string>`${customers.firstName} || ' ' || ${customers.lastName}`,
        customerPhone: customers.phone,
        deviceSerial: devices.serialNumber,
        deviceModel: sql<string>`${deviceModels.make} || ' ' || ${deviceModels.model}`,
        planCode: servicePlans.code,
      })
      .from(page)
      .innerJoin(contracts, eq(contracts.id, page.id))
      .innerJoin(customers, eq(customers.id, contracts.customerId))
      .innerJoin(devices, eq(devices.id, contracts.deviceId))
      .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
      .innerJoin(servicePlans, eq(servicePlans.id, contracts.planId))
      .orderBy(...order),
    contractTotalsCache(ctx).get(totalKey, async () => {
      const [row] = await ctx.db.select({ n: count() }).from(contracts).where(where);
      return Number(row?.n ?? 0);
    }),
  ]);
  return {
    items: rows.map(({ contract: c, ...rest }) => ({
      id: c.id,
      number: c.number,
      status: c.status,
      customerId: c.customerId,
      ...rest,
      currency: c.currency,
      principal: c.principal,
      regularPayment: c.installment + c.serviceFee,
      frequency: c.frequency,
      dpd: c.dpd,
      bucket: c.bucket,
      outstandingTotal: c.outstandingTotal,
      nextDueDate: c.nextDueDate,
      createdAt: c.createdAt.toISOString(),
      activatedAt: c.activatedAt?.toISOString() ?? null,
    })),
    total,
    page: limit ? 1 : query.page,
    pageSize,
  };
}
