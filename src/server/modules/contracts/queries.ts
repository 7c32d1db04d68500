import { and, asc, count, desc, eq, gte, type SQL, sql } from 'drizzle-orm';
import { type Contract, type ContractRow, contractPageSchema } from '../../../contracts/contracts';
import type { Page } from '../../../contracts/lists';
import {
  contractEvents,
  contractInstallments,
  contracts,
  customers,
  deviceModels,
  devices,
  deviceTokens,
  payments,
  servicePlans,
} from '../../../db/schema';
import { type Bucket, delinquencySnapshot, isSettled } from '../../../domain';
import type { AppContext, Executor } from '../../context';
import { businessDate } from '../../dates';
import { notFound } from '../../errors';
import { offsetOf, searchCondition, withinDays } from '../../lists';
import { customerSearchCondition } from '../customers/service';
import { organisation } from '../settings/service';
import { contractPageCache, contractTotalsCache } from './list-cache';
import { namesForContract } from './parties';
import { toPosition } from './portfolio';
import { blockersOf } from './service';

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

type InstallmentRow = typeof contractInstallments.$inferSelect;

/**
 * Each instalment with its status as of today. Before activation (and after a cancellation)
 * nothing is due, so nothing is overdue.
 */
function scheduleOf(
  rows: InstallmentRow[],
  principal: number,
  today: string,
  dueYet: boolean,
): Contract['schedule'] {
  let balance = principal;
  return rows.map((row) => {
    const position = toPosition(row);
    balance -= row.principalDue;
    const paid = row.principalPaid + row.interestPaid + row.feePaid + row.penaltyPaid;
    const status: Contract['schedule'][number]['status'] = isSettled(position)
      ? 'paid'
      : dueYet && row.dueDate < today
        ? 'overdue'
        : dueYet && row.dueDate === today
          ? 'due'
          : paid > 0
            ? 'partial'
            : 'upcoming';
    return {
      n: row.n,
      dueDate: row.dueDate,
      principal: row.principalDue,
      interest: row.interestDue,
      serviceFee: row.feeDue,
      penalty: row.penaltyDue,
      total: row.principalDue + row.interestDue + row.feeDue + row.penaltyDue,
      paid,
      balance,
      status,
    };
  });
}

/** API.md: GET /api/contracts/:id, with figures as of today in the organisation's time zone. */
export async function contractDetail(
  ctx: AppContext,
  id: string,
  executor: Executor = ctx.db,
): Promise<Contract> {
  // Independent reads: on a PostgreSQL pool they run side by side (in a transaction, one by one).
  // Each is its own snapshot, as consecutive reads outside a transaction would be.
  const [[found], installments, paymentRows, events, tokens, names] = await Promise.all([
    executor
      .select({
        contract: contracts,
        customer: customers,
        device: devices,
        model: deviceModels,
        plan: servicePlans,
      })
      .from(contracts)
      .innerJoin(customers, eq(customers.id, contracts.customerId))
      .innerJoin(devices, eq(devices.id, contracts.deviceId))
      .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
      .innerJoin(servicePlans, eq(servicePlans.id, contracts.planId))
      .where(eq(contracts.id, id)),
    executor
      .select()
      .from(contractInstallments)
      .where(
        and(
          eq(contractInstallments.contractId, id),
          sql`${contractInstallments.scheduleVersion} = (SELECT schedule_version FROM contracts WHERE id = ${id})`,
        ),
      )
      .orderBy(asc(contractInstallments.n)),
    executor.select().from(payments).where(eq(payments.contractId, id)).orderBy(desc(payments.receivedAt)),
    executor
      .select()
      .from(contractEvents)
      .where(eq(contractEvents.contractId, id))
      .orderBy(asc(contractEvents.at)),
    executor
      .select()
      .from(deviceTokens)
      .where(eq(deviceTokens.contractId, id))
      .orderBy(desc(deviceTokens.issuedAt)),
    namesForContract(executor, id),
  ]);
  if (!found) throw notFound('Contract not found');
  const { contract: c, customer, device, model, plan } = found;
  const org = await organisation(ctx);
  const today = businessDate(ctx.clock.now(), org.timeZone);
  const positions = installments.map(toPosition);
  const snapshot = delinquencySnapshot(positions, {
    date: today,
    startDate: c.startDate,
    buckets: bucketsFrom(org.delinquencyBuckets),
  });

  const person = (userId: string | null) =>
    userId ? { id: userId, name: names.get(userId) ?? 'Former user' } : null;
  const depositReceived = paymentRows
    .filter((p) => p.method === 'deposit' && p.status === 'posted')
    .reduce((sum, p) => sum + p.amount, 0);
  const live = c.status === 'active' || c.status === 'defaulted';
  const totalServiceFees = installments.reduce((sum, row) => sum + row.feeDue, 0);
  return {
    id: c.id,
    number: c.number,
    status: c.status,
    customer: {
      id: customer.id,
      accountNumber: customer.accountNumber,
      name: `${customer.firstName} ${customer.lastName}`,
      phone: customer.phone,
      kycStatus: customer.kycStatus,
    },
    device: {
      id: device.id,
      serialNumber: device.serialNumber,
      imei: device.imei,
      model: `${model.make} ${model.model}`,
      controlKind: device.controlKind,
      status: device.status,
      lockState: device.lockState,
    },
    plan: { id: plan.id, code: plan.code, name: plan.name, version: plan.version },
    currency: c.currency,
    cashPrice: c.cashPrice,
    deposit: c.deposit,
    principal: c.principal,
    apr: Number(c.apr),
    frequency: c.frequency as Contract['frequency'],
    term: c.term,
    interestMethod: c.interestMethod as Contract['interestMethod'],
    installmentMultiple: c.installmentMultiple,
    serviceFee: c.serviceFee,
    installment: c.installment,
    regularPayment: c.installment + c.serviceFee,
    totalInterest: c.totalInterest,
    totalServiceFees,
    totalPayable: c.totalPayable,
    startDate: c.startDate,
    firstDueDate: c.firstDueDate,
    lastDueDate: c.lastDueDate,
    schedule: scheduleOf(
      installments,
      c.principal,
      today,
      !['draft', 'pending_approval', 'cancelled'].includes(c.status),
    ),
    asOf: today,
    dpd: live ? snapshot.dpd : 0,
    bucket: live ? snapshot.bucket.label : 'current',
    paidThroughDate: snapshot.paidThrough,
    nextDue: live ? snapshot.nextDue : null,
    outstanding: {
      principal: snapshot.outstanding.principal,
      interest: snapshot.outstanding.interest,
      fees: snapshot.outstanding.fee,
      penalties: snapshot.outstanding.penalty,
      total: snapshot.totalOutstanding,
    },
    totalPaid: snapshot.totalPaid,
    creditBalance: c.creditBalance,
    depositReceived,
    activationBlockers:
      c.status === 'draft' || c.status === 'pending_approval'
        ? blockersOf(c, { kycStatus: customer.kycStatus, deviceStatus: device.status, depositReceived })
        : [],
    createdAt: c.createdAt.toISOString(),
    createdBy: person(c.createdBy),
    submittedAt: c.submittedAt?.toISOString() ?? null,
    submittedBy: person(c.submittedBy),
    approvedAt: c.approvedAt?.toISOString() ?? null,
    approvedBy: person(c.approvedBy),
    activatedAt: c.activatedAt?.toISOString() ?? null,
    activatedBy: person(c.activatedBy),
    cancelledAt: c.cancelledAt?.toISOString() ?? null,
    cancelReason: c.cancelReason,
    payments: paymentRows.map((p) => ({
      id: p.id,
      receiptNumber: p.receiptNumber,
      amount: p.amount,
      method: p.method,
      channel: p.provider,
      reference: p.reference,
      receivedAt: p.receivedAt.toISOString(),
      status: p.status,
    })),
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      message: e.message,
      at: e.at.toISOString(),
      actor: person(e.actorId),
    })),
    tokens: tokens.map((t) => ({
      token: t.token,
      type: t.type,
      value: t.value,
      issuedAt: t.issuedAt.toISOString(),
    })),
  };
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
