import { eq, sql } from 'drizzle-orm';
import type { Organisation, OrganisationBody, Preferences } from '../../../contracts/profile';
import { organisationSettings, userPreferences } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import { instanceCache } from '../../cache';
import type { AppContext, Executor } from '../../context';

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
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The organisation's settings, read by nearly every request that shows money or dates: cached
 * per instance and evicted everywhere when an administrator changes them.
 */
export function organisation(ctx: AppContext, executor: Executor = ctx.db): Promise<Organisation> {
  // Inside a transaction pass it: on the embedded database (one connection) a read through
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

export async function updateOrganisation(
  ctx: AppContext,
  actor: Actor,
  input: OrganisationBody,
): Promise<Organisation> {
  return ctx.db.transaction(async (tx) => {
    const before = await loadOrganisation(tx);
    const [row] = await tx
      .update(organisationSettings)
      .set({
        ...input,
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
      before: { ...before, updatedAt: undefined },
      after: { ...after, updatedAt: undefined },
    });
    return after;
  });
}

const DEFAULT_PREFERENCES: Preferences = { theme: 'system', landingPage: '/', notificationSettings: {} };

export async function preferences(ctx: AppContext, userId: string): Promise<Preferences> {
  const [row] = await ctx.db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  if (!row) return DEFAULT_PREFERENCES;
  return {
    theme: row.theme,
    landingPage: row.landingPage as Preferences['landingPage'],
    notificationSettings: row.notificationSettings,
  };
}

export async function savePreferences(
  ctx: AppContext,
  userId: string,
  input: Preferences,
): Promise<Preferences> {
  const now = ctx.clock.now();
  await ctx.db
    .insert(userPreferences)
    .values({ userId, ...input, updatedAt: now })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: {
        theme: input.theme,
        landingPage: input.landingPage,
        notificationSettings: sql`excluded.notification_settings`,
        updatedAt: now,
      },
    });
  return preferences(ctx, userId);
}
