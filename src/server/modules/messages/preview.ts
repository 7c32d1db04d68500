import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { TemplatePreview } from '../../../contracts/communications';
import { CUSTOM_TEMPLATE_VARIABLES, type MessageChannel } from '../../../contracts/messages';
import { queryRows } from '../../../db/client';
import {
  contractInstallments,
  contracts,
  customers,
  messageTemplates,
  messagingSettings,
} from '../../../db/schema';
import { minorUnitDigits, renderTemplate, smsSegments } from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppServices, Executor } from '../../context';
import { notFound } from '../../errors';
import { organisation } from '../../organisation';
import { dpdOn, figuresJoin } from '../contracts/figures';
import { REMAINING } from '../contracts/portfolio';
import { paymentInstructions } from '../payments/mobile-money/instructions';
import { DEFAULT_LANGUAGE } from './outbox';
import { messageDateSql, messageMoneySql } from './values-sql';

/**
 * What a template says to a real customer (issue 15 "A preview rendered on a real customer"):
 * the variables of CUSTOM_TEMPLATE_VARIABLES read from their data in SQL, one statement for one
 * customer (the preview, a single send) or for a whole segment (a bulk send's INSERT … SELECT),
 * so the two can never disagree. The contract is the customer's latest live one (active or
 * defaulted); a customer with none gets "-" and zero amounts, never a blank.
 */

export interface RecipientSqlInput {
  /** A condition on `cu` (customers). */
  where: SQL;
  currency: string;
  payBill: string;
  /** The business date: what is due up to it (or up to the next due date, whichever is later). */
  today: string;
  /** This contract's figures instead of the latest live contract's (a send from a contract's page). */
  contractId?: string | undefined;
}

/**
 * Rows (customer_id, contract_id, name, phone, email, language, consent_sms, consent_whatsapp,
 * consent_email) and one text column per CUSTOM_TEMPLATE_VARIABLES name ("firstName", …) for every
 * customer the condition holds: what a bulk send's statement renders from.
 */
export function recipientColumnsSql(input: RecipientSqlInput): SQL {
  const currency = sql`${input.currency}::text`;
  const digits = minorUnitDigits(input.currency);
  return sql`
    SELECT cu.id AS customer_id, lc.id AS contract_id, cu.first_name || ' ' || cu.last_name AS name,
           cu.phone, cu.email, cu.language,
           cu.consent_sms_at IS NOT NULL AS consent_sms, cu.consent_whatsapp_at IS NOT NULL AS consent_whatsapp,
           cu.consent_email_at IS NOT NULL AS consent_email,
           cu.first_name AS "firstName", cu.last_name AS "lastName",
           coalesce(lc.number, '-') AS "contractNumber",
           ${messageMoneySql(sql`coalesce(due.amount, 0)`, currency, digits)} AS "amountDue",
           coalesce(${messageDateSql(sql`coalesce(lc.next_due_date, due.next_date)`)}, '-') AS "dueDate",
           ${messageMoneySql(sql`coalesce(lc.outstanding_total, 0)`, currency, digits)} AS "balance",
           coalesce(lc.dpd, 0)::text AS "daysOverdue",
           ${input.payBill}::text AS "payBill",
           coalesce(lc.number, cu.phone) AS "account"
    FROM ${customers} cu
    LEFT JOIN LATERAL (
      SELECT c.id, c.number, f.next_due_date, f.outstanding_total, ${dpdOn(input.today)} AS dpd, c.schedule_version
      FROM ${contracts} c ${figuresJoin()} WHERE c.customer_id = cu.id
        AND ${input.contractId ? sql`c.id = ${input.contractId}` : sql`c.status IN ('active', 'defaulted')`}
      ORDER BY c.activated_at DESC NULLS LAST, c.created_at DESC, c.id DESC LIMIT 1) lc ON TRUE
    LEFT JOIN LATERAL (
      SELECT sum(${REMAINING}) FILTER (
               WHERE i.due_date <= GREATEST(coalesce(lc.next_due_date, ${input.today}::date), ${input.today}::date)) AS amount,
             -- Where the stored next due date is not yet written: the first unpaid one from today.
             min(i.due_date) FILTER (WHERE i.due_date >= ${input.today}::date) AS next_date
      FROM ${contractInstallments} i
      WHERE i.contract_id = lc.id AND i.schedule_version = lc.schedule_version AND i.settled_at IS NULL) due ON TRUE
    WHERE ${input.where}`;
}

/** The same rows with the variables gathered in `vars` (jsonb), as the preview renders them. */
export function recipientRowsSql(input: RecipientSqlInput): SQL {
  const pairs = sql.join(
    CUSTOM_TEMPLATE_VARIABLES.map((name) => sql`${name}::text, r.${sql.identifier(name)}`),
    sql`, `,
  );
  return sql`SELECT r.*, jsonb_build_object(${pairs}) AS vars FROM (${recipientColumnsSql(input)}) r`;
}

export interface RecipientRow {
  customer_id: string;
  contract_id: string | null;
  name: string;
  phone: string;
  email: string | null;
  language: string;
  consent_sms: boolean;
  consent_whatsapp: boolean;
  consent_email: boolean;
  vars: Record<string, string>;
}

/** The organisation's currency, the paybill and the business date, as recipientRowsSql needs them. */
export async function recipientContext(
  ctx: AppServices,
  executor: Executor,
): Promise<Omit<RecipientSqlInput, 'where'>> {
  const org = await organisation(ctx, executor);
  return {
    currency: org.currency,
    payBill: paymentInstructions(ctx.config, '').payBill,
    today: businessToday(ctx, org),
  };
}

export async function recipientOf(
  ctx: AppServices,
  executor: Executor,
  customerId: string,
  contractId?: string,
): Promise<RecipientRow> {
  const input = await recipientContext(ctx, executor);
  const [row] = await queryRows<RecipientRow>(
    executor,
    recipientRowsSql({ ...input, contractId, where: sql`cu.id = ${customerId}` }),
  );
  if (!row) throw notFound('Customer not found');
  if (contractId && row.contract_id !== contractId) throw notFound('This customer has no such contract');
  return row;
}

type TemplateRow = typeof messageTemplates.$inferSelect;

/**
 * The customer's language's template when the key has it on the channel, else English's (the
 * fallback): the rule the bulk send's SQL follows too (`templateForLanguageSql`).
 */
export async function templateFor(
  executor: Executor,
  key: string,
  channel: MessageChannel,
  language: string,
): Promise<TemplateRow | undefined> {
  const rows = await executor
    .select()
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.key, key),
        eq(messageTemplates.channel, channel),
        inArray(messageTemplates.language, [language, DEFAULT_LANGUAGE]),
      ),
    );
  return (
    rows.find((row) => row.language === language) ?? rows.find((row) => row.language === DEFAULT_LANGUAGE)
  );
}

/** The SMS cost of one segment (minor units) and the providers' rates a minute. */
export async function messagingFigures(executor: Executor): Promise<{
  costPerSegment: number;
  ratePerMinute: Record<MessageChannel, number>;
}> {
  const [row] = await executor.select().from(messagingSettings).where(eq(messagingSettings.id, 'default'));
  return {
    costPerSegment: row?.smsCostPerSegment ?? 0,
    ratePerMinute: {
      sms: (row?.smsRatePerSecond ?? 50) * 60,
      whatsapp: (row?.whatsappRatePerSecond ?? 50) * 60,
      email: (row?.emailRatePerSecond ?? 10) * 60,
    },
  };
}

export function smsEstimate(body: string, costPerSegment: number, currency: string) {
  const count = smsSegments(body);
  return { ...count, costMinor: count.segments * costPerSegment, currency };
}

/** The template (or an unsaved text of it) rendered on a customer, with its SMS estimate. */
export async function previewTemplate(
  ctx: AppServices,
  executor: Executor,
  input: {
    key: string;
    channel: MessageChannel;
    customerId: string;
    contractId?: string | undefined;
    body?: string | undefined;
    subject?: string | undefined;
  },
): Promise<TemplatePreview> {
  const recipient = await recipientOf(ctx, executor, input.customerId, input.contractId);
  const template = await templateFor(executor, input.key, input.channel, recipient.language);
  if (!template && !input.body) throw notFound(`No ${input.channel} template "${input.key}"`);
  const body = renderTemplate(input.body ?? template?.body ?? '', recipient.vars);
  const subjectText = input.subject ?? template?.subject ?? null;
  const subject = subjectText ? renderTemplate(subjectText, recipient.vars) : null;
  const { costPerSegment } = await messagingFigures(executor);
  const { currency } = await organisation(ctx, executor);
  return {
    language: template?.language ?? recipient.language,
    customerLanguage: recipient.language,
    contractId: recipient.contract_id,
    variables: recipient.vars,
    subject,
    body,
    sms: smsEstimate(body, costPerSegment, currency),
  };
}
