import { eq, sql } from 'drizzle-orm';
import { ERROR_CODES } from '../contracts/errors';
import type { Organisation, OrganisationBody } from '../contracts/profile';
import { organisationSettings } from '../db/schema';
import { type Actor, writeAudit } from './audit';
import { businessToday } from './business-date';
import { instanceCache } from './cache';
import type { AppServices, Executor, TxContext } from './context';
import { AppError } from './errors';

/**
 * The organisation's settings (currency, time zone, buckets, caps, the business date's offset), a platform service: every area
 * reads them through `organisation()`; administrators change them through the settings routes.
 */
type OrganisationRow = typeof organisationSettings.$inferSelect;

function toOrganisation(row: OrganisationRow): Organisation {
  return {
    name: row.name,
    currency: row.currency,
    timeZone: row.timeZone,
    country: row.country,
    delinquencyBuckets: row.delinquencyBuckets,
    quietHoursStart: row.quietHoursStart,
    quietHoursEnd: row.quietHoursEnd,
    aprCap: row.aprCap === null ? null : Number(row.aprCap),
    incomeBands: row.incomeBands ?? null,
    closeOfBusinessTime: row.closeOfBusinessTime,
    interestAccrualFrom: row.interestAccrualFrom,
    businessDateOffset: row.businessDateOffset,
    lastClosedDate: row.lastClosedDate,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The organisation's settings, read by nearly every request that shows money or dates: cached
 * per instance and evicted everywhere when an administrator changes them.
 */
export function organisation(ctx: AppServices, executor: Executor): Promise<Organisation> {
  // Inside a transaction, its handle: on the embedded database (one connection) a read through
  // ctx.db would wait for the transaction that waits for it.
  return instanceCache<Organisation>(ctx, 'organisation', 300_000).get('1', () => loadOrganisation(executor));
}

/** The single row is created with defaults on first read. */
async function loadOrganisation(executor: Executor): Promise<Organisation> {
  const [row] = await executor.select().from(organisationSettings).where(eq(organisationSettings.id, 1));
  if (row) return toOrganisation(row);
  await executor.insert(organisationSettings).values({ id: 1 }).onConflictDoNothing();
  const [created] = await executor.select().from(organisationSettings).where(eq(organisationSettings.id, 1));
  if (!created) throw new Error('Organisation settings row missing');
  return toOrganisation(created);
}

/** The settings an administrator edits, as the audit row records them. */
function settingsOf(
  org: Organisation,
): Omit<Organisation, 'updatedAt' | 'businessDateOffset' | 'lastClosedDate'> {
  const { updatedAt: _updatedAt, businessDateOffset: _offset, lastClosedDate: _closed, ...settings } = org;
  return settings;
}

export async function updateOrganisation(
  ctx: TxContext,
  actor: Actor,
  input: OrganisationBody,
): Promise<Organisation> {
  const { tx } = ctx;
  const before = await loadOrganisation(tx);
  checkAccrualStart(ctx, before, input.interestAccrualFrom);
  // The body's fields only: a caller passing what it read (`organisation()`) never writes the
  // business date's offset back over a move made meanwhile.
  const { name, currency, timeZone, country, delinquencyBuckets, quietHoursStart, quietHoursEnd } = input;
  const [row] = await tx
    .update(organisationSettings)
    .set({
      name,
      currency,
      timeZone,
      country,
      delinquencyBuckets,
      quietHoursStart,
      quietHoursEnd,
      incomeBands: input.incomeBands,
      closeOfBusinessTime: input.closeOfBusinessTime,
      interestAccrualFrom: input.interestAccrualFrom,
      aprCap: input.aprCap === undefined ? undefined : input.aprCap === null ? null : String(input.aprCap),
      updatedAt: ctx.clock.now(),
      updatedBy: actor.id,
    })
    .where(eq(organisationSettings.id, 1))
    .returning();
  if (!row) throw new Error('Organisation settings row missing');
  const after = toOrganisation(row);
  await ctx.bus.publish(tx, 'organisation', '*');
  await writeAudit(tx, actor, {
    action: 'organisation.update',
    entityType: 'organisation',
    entityId: '1',
    before: settingsOf(before),
    after: settingsOf(after),
  });
  return after;
}

/**
 * Interest accrual (decision 026) puts the contracts started on or after its date on accrual for
 * life, and a payment's interest is booked by that rule when it is posted. So the date may be set or
 * moved only to the business date or later (no contract already started changes its accounting),
 * and once the business date has reached it, it stays.
 */
function checkAccrualStart(ctx: AppServices, before: Organisation, next: string | null | undefined): void {
  if (next === undefined || next === before.interestAccrualFrom) return;
  const today = businessToday(ctx, before);
  const refuse = (message: string) =>
    new AppError(422, ERROR_CODES.RULE, message, [{ field: 'interestAccrualFrom', message }]);
  if (before.interestAccrualFrom && before.interestAccrualFrom <= today)
    throw refuse(
      `Interest has been accrued since ${before.interestAccrualFrom}: the start date can no longer be changed`,
    );
  if (next !== null && next < today)
    throw refuse(`Interest accrual can start on the business date (${today}) or later, not before`);
}

/**
 * The settings as stored now, the row locked to the end of the transaction: for a change decided
 * on what they are (the business date moves from the current one).
 */
export async function lockOrganisation(ctx: TxContext): Promise<Organisation> {
  await loadOrganisation(ctx.tx);
  const [row] = await ctx.tx
    .select()
    .from(organisationSettings)
    .where(eq(organisationSettings.id, 1))
    .for('update');
  if (!row) throw new Error('Organisation settings row missing');
  return toOrganisation(row);
}

/**
 * Sets the days the business date runs ahead of the calendar (business-date.ts decides the rule
 * and writes the audit row). Every instance drops its cached settings, so every date rule moves.
 */
export async function saveBusinessDateOffset(
  ctx: TxContext,
  actor: Actor,
  offset: number,
): Promise<Organisation> {
  const [row] = await ctx.tx
    .update(organisationSettings)
    .set({ businessDateOffset: offset, updatedAt: ctx.clock.now(), updatedBy: actor.id })
    .where(eq(organisationSettings.id, 1))
    .returning();
  if (!row) throw new Error('Organisation settings row missing');
  await ctx.bus.publish(ctx.tx, 'organisation', '*');
  return toOrganisation(row);
}

/**
 * Records that the close of business completed `date` (never moves back): the business date can
 * then not be moved before it, and the next close starts after it.
 */
export async function saveLastClosedDate(ctx: TxContext, date: string): Promise<void> {
  await ctx.tx
    .update(organisationSettings)
    .set({ lastClosedDate: sql`GREATEST(${organisationSettings.lastClosedDate}, ${date}::date)` })
    .where(eq(organisationSettings.id, 1));
  await ctx.bus.publish(ctx.tx, 'organisation', '*');
}

/**
 * Records that a refresh of the whole book brought every live contract's stored arrears figures
 * to `date` (decision 034). Not part of the cached settings: read with `figuresDate` in the
 * transaction that relies on it.
 */
export async function saveFiguresDate(ctx: TxContext, date: string): Promise<void> {
  await ctx.tx.update(organisationSettings).set({ figuresDate: date }).where(eq(organisationSettings.id, 1));
}

/** The date the stored arrears figures were last brought to, as stored now (null: unknown, or buckets changed since). */
export async function figuresDate(ctx: TxContext): Promise<string | null> {
  const [row] = await ctx.tx
    .select({ date: organisationSettings.figuresDate })
    .from(organisationSettings)
    .where(eq(organisationSettings.id, 1));
  return row?.date ?? null;
}
