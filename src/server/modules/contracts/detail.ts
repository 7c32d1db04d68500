import { eq, sql } from 'drizzle-orm';
import type { Contract } from '../../../contracts/contracts';
import type { Organisation } from '../../../contracts/profile';
import type { RoleHolder } from '../../../contracts/roles';
import { prepared } from '../../../db/prepared';
import type { InstallmentRow } from '../../../db/schema';
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
  users,
} from '../../../db/schema';
import { isSettled } from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import { organisation } from '../../organisation';
import { phoneFor } from '../../pii';
import { toPosition } from './portfolio';
import { blockersOf } from './service';
import { figuresOf } from './standing';

type ContractEventPart = Omit<Contract['events'][number], 'actor'> & { actorId: string | null };

/** Everything a contract's page shows: as read by contractDetail, or as just written by createDraft. */
export interface ContractParts {
  contract: typeof contracts.$inferSelect;
  customer: typeof customers.$inferSelect;
  device: typeof devices.$inferSelect;
  model: typeof deviceModels.$inferSelect;
  plan: typeof servicePlans.$inferSelect;
  /** The current schedule version, in order. */
  installments: InstallmentRow[];
  payments: Contract['payments'];
  events: ContractEventPart[];
  tokens: Contract['tokens'];
  /** Display names of the people on the contract and its timeline, by user id. */
  names: Record<string, string>;
}

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

/** An instalment as the detail query sends it (JSON array): `InstallmentRow`'s columns after the keys. */
type InstallmentTuple = [
  n: number,
  dueDate: string,
  principalDue: number,
  interestDue: number,
  feeDue: number,
  penaltyDue: number,
  principalPaid: number,
  interestPaid: number,
  feePaid: number,
  penaltyPaid: number,
  settledAt: string | null,
];

/**
 * The whole contract page in one statement: the contract with its parties, and its current
 * schedule, payments, timeline, tokens and the names of the people on them as JSON. One round
 * trip instead of six, and the 365 rows of a daily schedule cross as one JSON value rather than
 * as rows the driver parses field by field. Prepared (named, on PostgreSQL), so neither we nor
 * the server build or plan it again on every read: planning alone took longer than running it.
 */
const readContract = prepared('contract_detail', (db) =>
  db
    .select({
      contract: contracts,
      customer: customers,
      device: devices,
      model: deviceModels,
      plan: servicePlans,
      installments: sql<InstallmentTuple[]>`(
        SELECT coalesce(json_agg(json_build_array(i.n, i.due_date, i.principal_due, i.interest_due, i.fee_due,
                 i.penalty_due, i.principal_paid, i.interest_paid, i.fee_paid, i.penalty_paid, i.settled_at) ORDER BY i.n), '[]')
        FROM ${contractInstallments} i
        WHERE i.contract_id = ${contracts.id} AND i.schedule_version = ${contracts.scheduleVersion})`,
      payments: sql<PaymentJson[]>`(
        SELECT coalesce(json_agg(json_build_object('id', p.id, 'receiptNumber', p.receipt_number, 'amount', p.amount,
                 'method', p.method, 'channel', p.provider, 'reference', p.reference, 'receivedAt', p.received_at,
                 'status', p.status) ORDER BY p.received_at DESC), '[]')
        FROM ${payments} p WHERE p.contract_id = ${contracts.id})`,
      events: sql<EventJson[]>`(
        SELECT coalesce(json_agg(json_build_object('id', e.id, 'type', e.type, 'message', e.message, 'at', e.at,
                 'actorId', e.actor_id) ORDER BY e.at), '[]')
        FROM ${contractEvents} e WHERE e.contract_id = ${contracts.id})`,
      // By device first: the tokens' index is on the device.
      tokens: sql<TokenJson[]>`(
        SELECT coalesce(json_agg(json_build_object('token', t.token, 'type', t.type, 'value', t.value,
                 'issuedAt', t.issued_at) ORDER BY t.issued_at DESC), '[]')
        FROM ${deviceTokens} t WHERE t.device_id = ${contracts.deviceId} AND t.contract_id = ${contracts.id})`,
      names: sql<Record<string, string>>`(
        SELECT coalesce(json_object_agg(u.id, u.first_name || ' ' || u.last_name), '{}')
        FROM ${users} u
        WHERE u.id IN (SELECT unnest(ARRAY[${contracts.createdBy}, ${contracts.submittedBy}, ${contracts.approvedBy},
                                           ${contracts.activatedBy}, ${contracts.cancelledBy}])
                       UNION SELECT actor_id FROM ${contractEvents} WHERE contract_id = ${contracts.id}))`,
    })
    .from(contracts)
    .innerJoin(customers, eq(customers.id, contracts.customerId))
    .innerJoin(devices, eq(devices.id, contracts.deviceId))
    .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
    .innerJoin(servicePlans, eq(servicePlans.id, contracts.planId))
    .where(eq(contracts.id, sql.placeholder('id'))),
);

type PaymentJson = Omit<Contract['payments'][number], 'receivedAt'> & { receivedAt: string };
type EventJson = Omit<ContractEventPart, 'at'> & { at: string };
type TokenJson = Omit<Contract['tokens'][number], 'issuedAt'> & { issuedAt: string };

/** A timestamp from JSON (PostgreSQL's text, any offset) as the API sends every time: ISO in UTC. */
const iso = (text: string) => new Date(text).toISOString();

/** API.md: GET /api/contracts/:id, with figures as of today in the organisation's time zone. */
/** A contract as `viewer` may see it: the customer's phone masked for a viewer (src/server/pii.ts). */
export async function contractDetail(
  ctx: AppContext,
  id: string,
  viewer: RoleHolder | null | undefined,
): Promise<Contract> {
  const [[found], org] = await Promise.all([readContract(ctx.db).execute({ id }), organisation(ctx, ctx.db)]);
  if (!found) throw notFound('Contract not found');
  const { contract: c } = found;
  const installments: InstallmentRow[] = found.installments.map((i) => ({
    contractId: c.id,
    scheduleVersion: c.scheduleVersion,
    n: i[0],
    dueDate: i[1],
    principalDue: i[2],
    interestDue: i[3],
    feeDue: i[4],
    penaltyDue: i[5],
    principalPaid: i[6],
    interestPaid: i[7],
    feePaid: i[8],
    penaltyPaid: i[9],
    settledAt: i[10],
  }));
  const contract = await presentContract(ctx, org, {
    ...found,
    installments,
    payments: found.payments.map((p) => ({ ...p, receivedAt: iso(p.receivedAt) })),
    events: found.events.map((e) => ({ ...e, at: iso(e.at) })),
    tokens: found.tokens.map((t) => ({ ...t, issuedAt: iso(t.issuedAt) })),
  });
  return {
    ...contract,
    customer: { ...contract.customer, phone: phoneFor(viewer, contract.customer.phone) },
  };
}

/**
 * The API's view of a contract from its parts, with figures as of today in the organisation's
 * time zone: for one just read (contractDetail), or just written (a new draft answers with what
 * it wrote instead of reading it back).
 */
export function presentContract(ctx: AppContext, org: Organisation, parts: ContractParts): Contract {
  const { contract: c, customer, device, model, plan, installments, names } = parts;
  const today = businessToday(ctx, org);
  const snapshot = figuresOf(c, installments, org, today);

  const person = (userId: string | null) =>
    userId ? { id: userId, name: names[userId] ?? 'Former user' } : null;
  const depositReceived = parts.payments
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
    payments: parts.payments,
    events: parts.events.map(({ actorId, ...e }) => ({ ...e, actor: person(actorId) })),
    tokens: parts.tokens,
  };
}
