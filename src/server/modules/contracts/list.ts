import { eq, type SQL, sql } from 'drizzle-orm';
import { type ContractRow, contractEndpoints } from '../../../contracts/contracts';
import {
  contractFigures,
  contractSearch,
  contracts,
  customers,
  deviceModels,
  devices,
  servicePlans,
} from '../../../db/schema';
import { csvOf, defineList } from '../../list-definition';
import { searchCondition, withinDays } from '../../lists';
import { phoneFor, piiVariant } from '../../pii';
import { customerSearchCondition } from '../customers/list';
import { bucketOn, dpdOn, FIGURES_TABLE, inBucketOn, pastDueAtLeast } from './figures';

/**
 * Contracts whose number, customer (names, account, phone, ID) or device (serial, IMEI) matches:
 * three indexed searches united, rather than one OR across a join that no index can serve. The
 * ids are gathered first (`= ANY(ARRAY(...))`, decision 010): as `IN (...)` the planner took the
 * trigram estimate (1% of contracts for any number) and hashed the union against a scan of every
 * contract, 60-100 ms for a search that matches 100; as an array it reads them by primary key.
 */
function searchMatches(q: string): SQL {
  const byDevice = searchCondition(devices.searchText, q);
  return sql`${contracts.id} = ANY(ARRAY(
    ${contractNumberMatches(q)}
    UNION
    SELECT ${contracts.id} FROM ${contracts} JOIN ${customers} ON ${customers.id} = ${contracts.customerId}
    WHERE ${customerSearchCondition(q)}
    UNION
    SELECT ${contracts.id} FROM ${contracts} JOIN ${devices} ON ${devices.id} = ${contracts.deviceId}
    WHERE ${byDevice}))`;
}

/**
 * The ids of the contracts whose number contains `q` (a prefix under three characters), as a
 * query: through the number's own search table and its trigram index (decision 034). Other areas'
 * lists search contract numbers with it.
 */
export function contractNumberMatches(q: string): SQL {
  return sql`SELECT ${contractSearch.contractId} FROM ${contractSearch}
    WHERE ${searchCondition(contractSearch.numberLower, q)}`;
}

/** Contracts whose figures meet `condition`, as a semi-join: the list's count reads contracts alone (decision 041). */
function withFigures(condition: SQL | undefined): SQL {
  return sql`${contracts.id} IN (SELECT ${contractFigures.contractId} FROM ${contractFigures} WHERE ${condition})`;
}

/** /api/contracts (API.md "Contracts and payments"). */
export const contractList = defineList({
  name: 'contract',
  endpoint: contractEndpoints.list,
  // A row shows its figures, customer, device, model and plan; a search matches customers and
  // devices. A total reads the figures only through its bucket or DPD filter: a payment, which
  // moves figures alone, evicts every page but only those totals (decision 045).
  shows: [contracts, contractFigures, customers, devices, deviceModels, servicePlans],
  counts: [contracts, customers, devices],
  filterReads: { bucket: [contractFigures], minDpd: [contractFigures] },
  // A page shows a few contracts' figures: a payment evicts the pages that show its contract, and
  // those sorted or filtered by figures (where it may move a contract onto or off the page).
  rowsOf: { table: contractFigures, key: (row) => row.id },
  search: searchMatches,
  filters: {
    status: (status) => eq(contracts.status, status),
    // Days past due and buckets are of the business date, as ranges of the day arrears began (its index).
    bucket: (bucket, env) => withFigures(inBucketOn(env.buckets, bucket, env.businessDate, FIGURES_TABLE)),
    customerId: (id) => eq(contracts.customerId, id),
    planId: (id) => eq(contracts.planId, id),
    minDpd: (dpd, env) =>
      dpd > 0 ? withFigures(pastDueAtLeast(env.businessDate, dpd, FIGURES_TABLE)) : undefined,
    from: (from, env) => withinDays(contracts.createdAt, from, undefined, env.timeZone),
    to: (to, env) => withinDays(contracts.createdAt, undefined, to, env.timeZone),
  },
  // Each sort is an index read forwards or backwards (migration 0004); the number is unique.
  sorts: {
    createdAt: { columns: [contracts.createdAt] },
    number: { columns: [contracts.number], unique: true },
    // On contract_figures, joined by the pages (its indexes end with the contract, the tie-break).
    // The most days past due are the earliest day arrears began (decision 054).
    dpd: { columns: [contractFigures.arrearsSince], reversed: true, reads: [contractFigures] },
    outstanding: { columns: [contractFigures.outstandingTotal], reads: [contractFigures] },
    // Contracts not yet activated come last whichever way activation dates are sorted.
    activatedAt: { columns: [contracts.activatedAt], nullsLast: true },
  },
  tieBreak: contracts.id,
  // Rows carry the customer's phone: masked for viewers, so pages are cached per PII view.
  variant: piiVariant,
  rows: async ({ ctx, where, orderBy, limit, offset, viewer, env }) => {
    // The page's ids first, from the contracts table and its indexes alone; then the joins for
    // those rows only (joining before the offset would join every skipped row too).
    const page = ctx.db
      .select({ id: contracts.id })
      .from(contracts)
      .innerJoin(contractFigures, eq(contractFigures.contractId, contracts.id))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset)
      .as('page');
    const rows = await ctx.db
      .select({
        contract: contracts,
        figures: contractFigures,
        dpd: sql<number>`${dpdOn(env.businessDate, FIGURES_TABLE)}`,
        bucket: sql<string>`${bucketOn(env.buckets, env.businessDate, FIGURES_TABLE)}`,
        customerName: sql<string>`${customers.firstName} || ' ' || ${customers.lastName}`,
        customerPhone: customers.phone,
        deviceSerial: devices.serialNumber,
        deviceModel: sql<string>`${deviceModels.make} || ' ' || ${deviceModels.model}`,
        planCode: servicePlans.code,
      })
      .from(page)
      .innerJoin(contracts, eq(contracts.id, page.id))
      .innerJoin(contractFigures, eq(contractFigures.contractId, contracts.id))
      .innerJoin(customers, eq(customers.id, contracts.customerId))
      .innerJoin(devices, eq(devices.id, contracts.deviceId))
      .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
      .innerJoin(servicePlans, eq(servicePlans.id, contracts.planId))
      .orderBy(...orderBy);
    return rows.map(({ contract: c, figures: f, customerPhone, dpd, bucket, ...rest }) => ({
      id: c.id,
      number: c.number,
      status: c.status,
      customerId: c.customerId,
      ...rest,
      customerPhone: phoneFor(viewer, customerPhone),
      currency: c.currency,
      principal: c.principal,
      regularPayment: c.installment + c.serviceFee,
      frequency: c.frequency,
      dpd: Number(dpd),
      bucket,
      outstandingTotal: f.outstandingTotal,
      creditBalance: c.creditBalance,
      nextDueDate: f.nextDueDate,
      createdAt: c.createdAt.toISOString(),
      activatedAt: c.activatedAt?.toISOString() ?? null,
    }));
  },
  csv: csvOf<ContractRow>({ filename: 'contracts.csv', noun: 'contracts' }, [
    { header: 'Contract', value: (c) => c.number },
    { header: 'Status', value: (c) => c.status },
    { header: 'Customer', value: (c) => c.customerName },
    { header: 'Phone', value: (c) => c.customerPhone },
    { header: 'Device', value: (c) => `${c.deviceModel} ${c.deviceSerial}` },
    { header: 'Plan', value: (c) => c.planCode },
    { header: 'Currency', value: (c) => c.currency },
    { header: 'Principal (minor units)', value: (c) => c.principal },
    { header: 'Payment (minor units)', value: (c) => c.regularPayment },
    { header: 'Frequency', value: (c) => c.frequency },
    { header: 'DPD', value: (c) => c.dpd },
    { header: 'Bucket', value: (c) => c.bucket },
    { header: 'Outstanding (minor units)', value: (c) => c.outstandingTotal },
    { header: 'Next due', value: (c) => c.nextDueDate },
    { header: 'Created', value: (c) => c.createdAt },
    { header: 'Activated', value: (c) => c.activatedAt },
  ]),
  // Totals of filters: counting 100,000 contracts for every page would cost more than the page.
  // Pages as the JSON bytes sent (about 30 KB each, so at most 1,000 kept).
  cache: { totalsTtlMs: 60_000, pages: { ttlMs: 10_000, maxEntries: 1_000 } },
});
