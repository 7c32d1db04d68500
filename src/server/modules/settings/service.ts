import { eq, sql } from 'drizzle-orm';
import type { OrganisationOptions, Preferences } from '../../../contracts/profile';
import { userPreferences } from '../../../db/schema';
import { bucketsFromBounds } from '../../../domain';
import type { AppContext, Executor, TxContext } from '../../context';
import { organisation } from '../../organisation';

/** The option lists the organisation's settings define, as filters offer them. */
export async function organisationOptions(ctx: AppContext): Promise<OrganisationOptions> {
  const org = await organisation(ctx, ctx.db);
  return {
    delinquencyBuckets: bucketsFromBounds(org.delinquencyBuckets).map(({ label }) => ({
      value: label,
      label: label === 'current' ? 'Current' : `${label} days`,
    })),
  };
}

const DEFAULT_PREFERENCES: Preferences = { theme: 'system', landingPage: '/', notificationSettings: {} };

export function preferences(ctx: AppContext, userId: string): Promise<Preferences> {
  return preferencesOf(ctx.db, userId);
}

async function preferencesOf(executor: Executor, userId: string): Promise<Preferences> {
  const [row] = await executor.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  if (!row) return DEFAULT_PREFERENCES;
  return {
    theme: row.theme,
    landingPage: row.landingPage as Preferences['landingPage'],
    notificationSettings: row.notificationSettings,
  };
}

export async function savePreferences(
  ctx: TxContext,
  userId: string,
  input: Preferences,
): Promise<Preferences> {
  const now = ctx.clock.now();
  await ctx.tx
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
  return preferencesOf(ctx.tx, userId);
}
