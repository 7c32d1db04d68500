import { and, asc, desc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type Consent,
  type Customer,
  type CustomerCreateInput,
  type CustomerEvent,
  type CustomerUpdateInput,
  canHoldCustomers,
  type DuplicateCustomer,
  KYC_DOCUMENT_LABELS,
  type KycDocumentType,
} from '../../../contracts/customers';
import type { RoleHolder } from '../../../contracts/roles';
import { queryRows } from '../../../db/client';
import { auditLog, customers, users } from '../../../db/schema';
import { type Actor, type AuditEntry, writeAudit } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { AppContext, Executor, TxContext } from '../../context';
import { AppError, fieldError, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { savepoint } from '../../transaction';
import { uniqueViolation } from '../../unique';
import { conversationTimeline } from '../conversations/timeline';
import { outboxTimeline } from '../messages/timeline';
import { findUserById } from '../users/service';
import { loadKycState } from './kyc';
import { customerListsChanged } from './list-cache';
import { normalisePhone } from './phone';
import { type CustomerRow, fullName, seesPii, toCustomer } from './present';
import { assessRisk, scorecardOf } from './risk';

const CONSENT_COLUMNS = {
  sms: 'consentSmsAt',
  whatsapp: 'consentWhatsappAt',
  email: 'consentEmailAt',
  marketing: 'consentMarketingAt',
  dataProcessing: 'consentDataProcessingAt',
} as const satisfies Record<Consent, keyof CustomerRow>;

/** The plain fields a create or update sets as given (after the schema's trimming). */
const PLAIN_FIELDS = [
  'firstName',
  'lastName',
  'otherNames',
  'email',
  'nationalId',
  'dateOfBirth',
  'gender',
  'address',
  'region',
  'occupation',
  'employment',
  'monthlyIncome',
  'assignedAgentId',
  'language',
  'tags',
] as const;
type PlainField = (typeof PLAIN_FIELDS)[number];

async function assertActiveStaff(executor: Executor, userId: string | null | undefined): Promise<void> {
  if (!userId) return;
  const user = await findUserById(executor, userId);
  if (!user?.active)
    throw fieldError('assignedAgentId', 'Choose an active staff member as the assigned agent');
  if (!canHoldCustomers(user)) {
    throw fieldError(
      'assignedAgentId',
      'A viewer cannot be an assigned agent; choose an agent or a more senior role',
    );
  }
}

async function duplicateOf(
  executor: Executor,
  field: 'phone' | 'nationalId',
  value: string,
  exceptId?: string,
): Promise<AppError | null> {
  const column = field === 'phone' ? customers.phone : customers.nationalId;
  const [existing] = await executor
    .select({
      id: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
      otherNames: customers.otherNames,
      accountNumber: customers.accountNumber,
    })
    .from(customers)
    .where(and(eq(column, value), exceptId ? ne(customers.id, exceptId) : undefined))
    .limit(1);
  if (!existing) return null;
  const what = field === 'phone' ? 'This phone number' : 'This national ID';
  const name = fullName(existing);
  const message = `${what} already belongs to ${name} (${existing.accountNumber})`;
  const details: DuplicateCustomer = { customerId: existing.id, accountNumber: existing.accountNumber, name };
  return new AppError(
    409,
    field === 'phone' ? 'DUPLICATE_PHONE' : 'DUPLICATE_NATIONAL_ID',
    message,
    [{ field, message }],
    undefined,
    details,
  );
}

/**
 * A unique index refused the row (two people saving the same phone at once get past the
 * friendly check together): name the customer who has it, never a 500.
 */
async function translateDuplicate(
  ctx: TxContext,
  error: unknown,
  values: { phone?: string | undefined; nationalId?: string | null | undefined },
  exceptId?: string,
): Promise<never> {
  const constraint = uniqueViolation(error);
  if (constraint === 'customers_phone_key' && values.phone) {
    const duplicate = await duplicateOf(ctx.tx, 'phone', values.phone, exceptId);
    if (duplicate) throw duplicate;
  }
  if (constraint === 'customers_national_id_key' && values.nationalId) {
    const duplicate = await duplicateOf(ctx.tx, 'nationalId', values.nationalId, exceptId);
    if (duplicate) throw duplicate;
  }
  if (constraint !== null) {
    throw new AppError(409, 'DUPLICATE', 'Another customer with the same details was saved at the same time');
  }
  throw error;
}

async function checkDuplicates(
  executor: Executor,
  values: { phone?: string | undefined; nationalId?: string | null | undefined },
  exceptId?: string,
): Promise<void> {
  if (values.phone) {
    const duplicate = await duplicateOf(executor, 'phone', values.phone, exceptId);
    if (duplicate) throw duplicate;
  }
  if (values.nationalId) {
    const duplicate = await duplicateOf(executor, 'nationalId', values.nationalId, exceptId);
    if (duplicate) throw duplicate;
  }
}

function consentAudits(customerId: string, before: CustomerRow | null, after: CustomerRow): AuditEntry[] {
  return (Object.keys(CONSENT_COLUMNS) as Consent[]).flatMap((consent) => {
    const column = CONSENT_COLUMNS[consent];
    const was = before?.[column] ?? null;
    const now = after[column];
    if ((was === null) === (now === null)) return [];
    return [
      {
        action: now ? 'customer.consent_given' : 'customer.consent_withdrawn',
        entityType: 'customer',
        entityId: customerId,
        before: { consent, at: was?.toISOString() ?? null },
        after: { consent, at: now?.toISOString() ?? null },
      },
    ];
  });
}

/** Turning a consent on stamps the time (an existing stamp stays); off clears it. */
function consentChanges(
  row: CustomerRow | null,
  consents: CustomerCreateInput['consents'],
  now: Date,
): Partial<CustomerRow> {
  const changes: Partial<CustomerRow> = {};
  for (const consent of Object.keys(CONSENT_COLUMNS) as Consent[]) {
    const given = consents?.[consent];
    if (given === undefined) continue;
    const column = CONSENT_COLUMNS[consent];
    const current = row?.[column] ?? null;
    if (given && current === null) changes[column] = now;
    if (!given && current !== null) changes[column] = null;
  }
  return changes;
}

const agent = alias(users, 'agent');
const creator = alias(users, 'creator');
const kycReviewer = alias(users, 'kyc_reviewer');
const names = <T extends { id: unknown; firstName: unknown; lastName: unknown }>(table: T) => ({
  id: table.id as T['id'],
  firstName: table.firstName as T['firstName'],
  lastName: table.lastName as T['lastName'],
});

/** `currency` is read before any transaction: on PGlite a read outside it would wait for it to end. */
async function present(
  executor: Executor,
  id: string,
  viewer: RoleHolder | null | undefined,
  currency: string,
): Promise<Customer> {
  const [found] = await executor
    .select({ row: customers, agent: names(agent), creator: names(creator), reviewer: names(kycReviewer) })
    .from(customers)
    .leftJoin(agent, eq(agent.id, customers.assignedAgentId))
    .leftJoin(creator, eq(creator.id, customers.createdBy))
    .leftJoin(kycReviewer, eq(kycReviewer.id, customers.kycReviewedBy))
    .where(eq(customers.id, id));
  if (!found) throw notFound('Customer not found');
  const kyc = await loadKycState(executor, id);
  return toCustomer(
    found.row,
    { agent: found.agent, createdBy: found.creator, reviewer: found.reviewer, missingDocuments: kyc.missing },
    currency,
    seesPii(viewer),
  );
}

export async function getCustomer(
  ctx: AppContext,
  id: string,
  viewer: RoleHolder | null | undefined,
): Promise<Customer> {
  return present(ctx.db, id, viewer, (await organisation(ctx, ctx.db)).currency);
}

function plainValues(input: Partial<Record<PlainField, unknown>>): Partial<CustomerRow> {
  const values: Record<string, unknown> = {};
  for (const field of PLAIN_FIELDS) if (input[field] !== undefined) values[field] = input[field];
  return values as Partial<CustomerRow>;
}

export async function createCustomer(
  ctx: TxContext,
  actor: Actor,
  viewer: RoleHolder | null | undefined,
  input: CustomerCreateInput,
): Promise<Customer> {
  const org = await organisation(ctx, ctx.tx);
  const phone = normalisePhone(input.phone, org.country);
  await assertActiveStaff(ctx.tx, input.assignedAgentId);
  await checkDuplicates(ctx.tx, { phone, nationalId: input.nationalId });
  const now = ctx.clock.now();
  const id = newId();
  try {
    return await savepoint(ctx, async ({ tx }) => {
      const [next] = await queryRows<{ n: string }>(
        tx,
        sql`SELECT nextval('customer_number_seq')::text AS n`,
      );
      const accountNumber = `C-${(next?.n ?? '0').padStart(6, '0')}`;
      const plain = plainValues(input);
      const risk = assessRisk(
        {
          monthlyIncome: input.monthlyIncome ?? null,
          dateOfBirth: input.dateOfBirth ?? null,
          employment: input.employment ?? null,
        },
        { idVerified: false, selfie: false, proofOfAddress: false },
        scorecardOf(org),
        businessDateOf(now, org),
        now,
      );
      const [row] = await tx
        .insert(customers)
        .values({
          ...plain,
          ...consentChanges(null, input.consents, now),
          ...risk,
          id,
          accountNumber,
          firstName: input.firstName,
          lastName: input.lastName,
          phone,
          createdBy: actor.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error('Customer insert returned nothing');
      await customerListsChanged(ctx, tx);
      const customer = await present(tx, id, viewer, org.currency);
      await writeAudit(tx, actor, {
        action: 'customer.create',
        entityType: 'customer',
        entityId: id,
        after: { accountNumber, ...plain, phone },
      });
      for (const entry of consentAudits(id, null, row)) await writeAudit(tx, actor, entry);
      return customer;
    });
  } catch (error) {
    return translateDuplicate(ctx, error, { phone, nationalId: input.nationalId });
  }
}

const sameValue = (a: unknown, b: unknown): boolean => {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return a === b;
};

/**
 * Optimistic concurrency: the change names the version it was based on; if someone saved in
 * between, it is refused with 409 and nothing is overwritten. An update that changes nothing
 * keeps the version.
 */
export async function updateCustomer(
  ctx: TxContext,
  actor: Actor,
  viewer: RoleHolder | null | undefined,
  id: string,
  input: CustomerUpdateInput,
): Promise<Customer> {
  const org = await organisation(ctx, ctx.tx);
  const phone = input.phone === undefined ? undefined : normalisePhone(input.phone, org.country);
  if (input.assignedAgentId) await assertActiveStaff(ctx.tx, input.assignedAgentId);
  try {
    return await savepoint(ctx, async ({ tx }) => {
      const [before] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
      if (!before) throw notFound('Customer not found');
      if (before.version !== input.version) {
        throw new AppError(
          409,
          'VERSION_CONFLICT',
          `Someone else changed this customer since you opened it (now version ${before.version}, yours ${input.version}); reload and make your change again`,
        );
      }
      const now = ctx.clock.now();
      const requested: Partial<CustomerRow> = { ...plainValues(input), ...(phone ? { phone } : {}) };
      const changed = Object.fromEntries(
        Object.entries(requested).filter(
          ([key, value]) => !sameValue(before[key as keyof CustomerRow], value),
        ),
      ) as Partial<CustomerRow>;
      const consents = consentChanges(before, input.consents, now);
      if (!Object.keys(changed).length && !Object.keys(consents).length)
        return present(tx, id, viewer, org.currency);
      await checkDuplicates(tx, { phone: changed.phone, nationalId: changed.nationalId }, id);
      const merged = { ...before, ...changed };
      const kyc = await loadKycState(tx, id);
      const risk = assessRisk(merged, kyc.evidence, scorecardOf(org), businessDateOf(now, org), now);
      const [after] = await tx
        .update(customers)
        .set({ ...changed, ...consents, ...risk, updatedAt: now, version: before.version + 1 })
        .where(eq(customers.id, id))
        .returning();
      if (!after) throw notFound('Customer not found');
      await customerListsChanged(ctx, tx);
      const customer = await present(tx, id, viewer, org.currency);
      if (Object.keys(changed).length) {
        await writeAudit(tx, actor, {
          action: 'customer.update',
          entityType: 'customer',
          entityId: id,
          before: Object.fromEntries(
            Object.keys(changed).map((key) => [key, before[key as keyof CustomerRow]]),
          ),
          after: changed,
        });
      }
      for (const entry of consentAudits(id, before, after)) await writeAudit(tx, actor, entry);
      return customer;
    });
  } catch (error) {
    return translateDuplicate(ctx, error, { phone, nationalId: input.nationalId }, id);
  }
}

/** The tags in use (most used first), for filters, segments and the form's suggestions. */
export async function listTags(ctx: AppContext): Promise<string[]> {
  const rows = await queryRows<{ tag: string }>(
    ctx.db,
    sql`SELECT tag FROM ${customers}, unnest(tags) AS tag GROUP BY tag ORDER BY count(*) DESC, tag LIMIT 500`,
  );
  return rows.map((row) => row.tag);
}

/** The regions in use, for the list's filter. */
export async function listRegions(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.db
    .selectDistinct({ region: customers.region })
    .from(customers)
    .where(isNotNull(customers.region))
    .orderBy(asc(customers.region))
    .limit(1000);
  return rows.map((row) => row.region).filter((region): region is string => region !== null);
}

const CONSENT_LABELS: Record<Consent, string> = {
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  email: 'E-mail',
  marketing: 'Marketing',
  dataProcessing: 'Data processing',
};

const FIELD_LABELS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  otherNames: 'other names',
  phone: 'phone',
  email: 'email',
  nationalId: 'national ID',
  dateOfBirth: 'date of birth',
  gender: 'gender',
  address: 'address',
  region: 'region',
  occupation: 'occupation',
  employment: 'employment',
  monthlyIncome: 'monthly income',
  assignedAgentId: 'assigned agent',
  language: 'message language',
  tags: 'tags',
};

type Json = Record<string, unknown> | null;
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const docLabel = (value: unknown) => KYC_DOCUMENT_LABELS[value as KycDocumentType] ?? text(value);

/** One line per audited event, without personal data (it is shown to every role). */
function summarise(action: string, before: Json, after: Json): string {
  switch (action) {
    case 'customer.create':
      return `Customer created (${text(after?.accountNumber)})`;
    case 'customer.update':
      return `Changed ${Object.keys(after ?? {})
        .map((key) => FIELD_LABELS[key] ?? key)
        .join(', ')}`;
    case 'customer.consent_given':
      return `${CONSENT_LABELS[after?.consent as Consent] ?? text(after?.consent)} consent given`;
    case 'customer.consent_withdrawn':
      return `${CONSENT_LABELS[after?.consent as Consent] ?? text(after?.consent)} consent withdrawn`;
    case 'customer.document_upload':
      return `${docLabel(after?.type)} uploaded (${text(after?.fileName)})`;
    case 'customer.document_review':
      return after?.status === 'verified'
        ? `${docLabel(after?.type)} verified`
        : `${docLabel(after?.type)} rejected: ${text(after?.reason)}`;
    case 'customer.kyc_status':
      return `KYC status ${text(before?.kycStatus)} → ${text(after?.kycStatus)}${
        after?.reason ? ` (${text(after.reason)})` : ''
      }`;
    case 'collections.action':
    case 'customer.recovery':
      // Written by the recoveries area: its own words, naming the contract.
      return text(after?.summary);
    default:
      return action;
  }
}

/** The customer's record of changes: creation, edits, consents, KYC documents and status. */
export async function customerTimeline(ctx: AppContext, id: string): Promise<CustomerEvent[]> {
  const [exists] = await ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.id, id));
  if (!exists) throw notFound('Customer not found');
  const rows = await ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'customer'), eq(auditLog.entityId, id)))
    .orderBy(desc(auditLog.id))
    .limit(500);
  const audited = rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    action: row.action,
    actor: row.actorLabel,
    summary: summarise(row.action, row.before as Json, row.after as Json),
  }));
  // Messages (issue 15): conversation lines and what the outbox sent, merged in by time; the
  // audited order stands when there are none.
  const lines = [...(await conversationTimeline(ctx.db, id)), ...(await outboxTimeline(ctx.db, id))];
  if (!lines.length) return audited;
  return [...audited, ...lines].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, 500);
}

/** For other areas (contracts): the facts they check before lending. */
export async function customerForContract(
  executor: Executor,
  id: string,
): Promise<
  Pick<CustomerRow, 'id' | 'accountNumber' | 'firstName' | 'lastName' | 'phone' | 'kycStatus' | 'riskGrade'>
> {
  const [row] = await executor
    .select({
      id: customers.id,
      accountNumber: customers.accountNumber,
      firstName: customers.firstName,
      lastName: customers.lastName,
      phone: customers.phone,
      kycStatus: customers.kycStatus,
      riskGrade: customers.riskGrade,
    })
    .from(customers)
    .where(eq(customers.id, id));
  if (!row) throw unprocessable('Customer not found', 'CUSTOMER_NOT_FOUND');
  return row;
}
