import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { collectionEndpoints, type PromiseToPay, type QueueRow } from '../../../contracts/collections';
import { queryRows } from '../../../db/client';
import {
  collectionCases,
  collectionPromises,
  contracts,
  customers,
  servicePlans,
  users,
} from '../../../db/schema';
import { csvOf, defineList } from '../../list-definition';
import { phoneFor, piiVariant } from '../../pii';
import { contractNumberMatches } from '../contracts/list';
import { customerSearchCondition } from '../customers/list';
import { promiseColumns, promiseJoins } from './read';

/** Cases whose contract number or customer matches: two indexed searches, ids gathered first. */
function caseSearch(q: string): SQL {
  return sql`${collectionCases.contractId} = ANY(ARRAY(
    ${contractNumberMatches(q)}
    UNION
    SELECT ${contracts.id} FROM ${contracts} JOIN ${customers} ON ${customers.id} = ${contracts.customerId}
    WHERE ${customerSearchCondition(q)}))`;
}

const inQueue = sql`${collectionCases.inQueue}`;
const withQueue = (where: SQL | undefined) => (where ? and(inQueue, where) : inQueue);

/**
 * The collections queue (PRODUCT.md §2): cases in arrears, due today or with a broken promise,
 * ranked by the stored priority score (refreshed set-based for the business date). The page is
 * read from the case table and its partial indexes alone (score order, per collector, per
 * bucket), then joined for its rows only. "My queue" is `collectorId` set to the caller by the
 * route.
 */
export const queueList = defineList({
  name: 'collection_queue',
  endpoint: collectionEndpoints.queue,
  shows: [collectionCases, contracts, customers, servicePlans, users],
  search: caseSearch,
  filters: {
    bucket: (bucket) => eq(collectionCases.bucket, bucket),
    region: (region) => eq(collectionCases.region, region),
    agentId: (id) => eq(collectionCases.agentId, id),
    planId: (id) => eq(collectionCases.planId, id),
    promiseState: (state) =>
      state === 'none' ? isNull(collectionCases.promiseState) : eq(collectionCases.promiseState, state),
    collectorId: (id) => eq(collectionCases.collectorId, id),
    // Replaced by collectorId in the route (the filter needs who asks).
    mine: () => undefined,
    unassigned: (value) => (value === 'true' ? isNull(collectionCases.collectorId) : undefined),
  },
  sorts: {
    score: { columns: [collectionCases.score] },
    dpd: { columns: [collectionCases.dpd] },
    amountOverdue: { columns: [collectionCases.amountOverdue] },
  },
  tieBreak: collectionCases.contractId,
  variant: piiVariant,
  count: async (ctx, where) => {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM ${collectionCases} WHERE ${withQueue(where)}`,
    );
    return Number(row?.n ?? 0);
  },
  rows: async ({ ctx, where, orderBy, limit, offset, viewer }) => {
    const page = ctx.db
      .select({ id: collectionCases.contractId })
      .from(collectionCases)
      .where(withQueue(where))
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset)
      .as('page');
    const rows = await ctx.db
      .select({
        k: collectionCases,
        number: contracts.number,
        customerName: sql<string>`${customers.firstName} || ' ' || ${customers.lastName}`,
        phone: customers.phone,
        planCode: servicePlans.code,
        collectorName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
      })
      .from(page)
      .innerJoin(collectionCases, eq(collectionCases.contractId, page.id))
      .innerJoin(contracts, eq(contracts.id, collectionCases.contractId))
      .innerJoin(customers, eq(customers.id, collectionCases.customerId))
      .innerJoin(servicePlans, eq(servicePlans.id, collectionCases.planId))
      .leftJoin(users, eq(users.id, collectionCases.collectorId))
      .orderBy(...orderBy);
    return rows.map(
      ({ k, number, customerName, phone, planCode, collectorName }): QueueRow => ({
        contractId: k.contractId,
        contractNumber: number,
        customerId: k.customerId,
        customerName,
        customerPhone: phoneFor(viewer, phone),
        region: k.region,
        planCode,
        bucket: k.bucket,
        dpd: k.dpd,
        amountOverdue: k.amountOverdue,
        regularPayment: k.regularPayment,
        currency: k.currency,
        riskGrade: k.riskGrade,
        brokenPromises: k.brokenPromises,
        daysSinceContact: k.daysSinceContact,
        dueToday: k.dueToday,
        promiseState: k.promiseState,
        score: k.score,
        parts: {
          dpd: k.dpdPoints,
          amount: k.amountPoints,
          risk: k.riskPoints,
          promises: k.promisePoints,
          contact: k.contactPoints,
        },
        scoredOn: k.scoredOn,
        collectorId: k.collectorId,
        collectorName: k.collectorId ? collectorName : null,
      }),
    );
  },
  csv: csvOf<QueueRow>({ filename: 'collections-queue.csv', noun: 'cases' }, [
    { header: 'Contract', value: (r) => r.contractNumber },
    { header: 'Customer', value: (r) => r.customerName },
    { header: 'Phone', value: (r) => r.customerPhone },
    { header: 'Region', value: (r) => r.region },
    { header: 'Plan', value: (r) => r.planCode },
    { header: 'Bucket', value: (r) => r.bucket },
    { header: 'DPD', value: (r) => r.dpd },
    { header: 'Overdue (minor units)', value: (r) => r.amountOverdue },
    { header: 'Currency', value: (r) => r.currency },
    { header: 'Risk grade', value: (r) => r.riskGrade },
    { header: 'Broken promises', value: (r) => r.brokenPromises },
    { header: 'Days since contact', value: (r) => r.daysSinceContact },
    { header: 'Promise', value: (r) => r.promiseState },
    { header: 'Score', value: (r) => r.score },
    { header: 'Collector', value: (r) => r.collectorName },
    { header: 'Scored on', value: (r) => r.scoredOn },
  ]),
  cache: { totalsTtlMs: 30_000, pages: { ttlMs: 10_000, maxEntries: 500 } },
});

/** Promises to pay, by state and collector. */
export const promiseList = defineList({
  name: 'collection_promises',
  endpoint: collectionEndpoints.promises,
  shows: [collectionPromises, contracts, customers, users],
  search: (q) => sql`${collectionPromises.contractId} = ANY(ARRAY(${contractNumberMatches(q)}))`,
  filters: {
    state: (state) => eq(collectionPromises.state, state),
    collectorId: (id) => eq(collectionPromises.collectorId, id),
    mine: () => undefined,
    contractId: (id) => eq(collectionPromises.contractId, id),
  },
  sorts: {
    promisedDate: { columns: [collectionPromises.promisedDate] },
    takenOn: { columns: [collectionPromises.takenAt] },
  },
  tieBreak: collectionPromises.id,
  // The page's ids in order first (the promise table and its indexes alone), then their rows.
  rows: async ({ ctx, where, orderBy, limit, offset }) =>
    queryRows<PromiseToPay>(
      ctx.db,
      sql`WITH page AS (
            SELECT ${collectionPromises.id} AS id, row_number() OVER (ORDER BY ${sql.join(orderBy, sql`, `)}) AS n
            FROM ${collectionPromises} ${where ? sql`WHERE ${where}` : sql``}
            ORDER BY ${sql.join(orderBy, sql`, `)} LIMIT ${limit} OFFSET ${offset})
          SELECT ${promiseColumns} FROM page JOIN ${collectionPromises} p ON p.id = page.id ${promiseJoins}
          ORDER BY page.n`,
    ).then((rows) =>
      rows.map((row) => ({ ...row, amount: Number(row.amount), amountPaid: Number(row.amountPaid) })),
    ),
  csv: csvOf<PromiseToPay>({ filename: 'promises.csv', noun: 'promises' }, [
    { header: 'Contract', value: (r) => r.contractNumber },
    { header: 'Customer', value: (r) => r.customerName },
    { header: 'Collector', value: (r) => r.collectorName },
    { header: 'Promised date', value: (r) => r.promisedDate },
    { header: 'Amount (minor units)', value: (r) => r.amount },
    { header: 'Paid (minor units)', value: (r) => r.amountPaid },
    { header: 'Currency', value: (r) => r.currency },
    { header: 'State', value: (r) => r.state },
    { header: 'Taken on', value: (r) => r.takenOn },
  ]),
});
