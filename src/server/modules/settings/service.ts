import { eq, sql } from 'drizzle-orm';
import type { Preferences } from '../../../contracts/profile';
import { userPreferences } from '../../../db/schema';
import type { AppContext } from '../../context';

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
