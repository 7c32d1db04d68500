import { eq, sql } from 'drizzle-orm';
import { customers } from '../../../db/schema';
import { SYSTEM_ACTOR, writeAudit } from '../../audit';
import type { TxContext } from '../../context';
import { customerListsChanged } from './list-cache';

const CONSENT_COLUMN = { sms: 'consentSmsAt', whatsapp: 'consentWhatsappAt' } as const;

/**
 * The customer's own opt-out (STOP) or opt-in (START) to a channel, by a keyword they sent
 * (issue 15 §3): the consent's timestamp set or cleared, audited as the customer's act. Nothing
 * changes, and nothing is audited, when the consent is already as asked.
 */
export async function setChannelConsent(
  ctx: TxContext,
  customerId: string,
  channel: keyof typeof CONSENT_COLUMN,
  give: boolean,
  channelName: string,
): Promise<void> {
  const column = CONSENT_COLUMN[channel];
  const [row] = await ctx.tx
    .select({ at: customers[column] })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for('update');
  if (!row || (row.at !== null) === give) return;
  const at = give ? ctx.clock.now() : null;
  await ctx.tx
    .update(customers)
    .set({ [column]: at, updatedAt: ctx.clock.now(), version: sql`${customers.version} + 1` })
    .where(eq(customers.id, customerId));
  await customerListsChanged(ctx, ctx.tx);
  await writeAudit(
    ctx.tx,
    { ...SYSTEM_ACTOR, label: `customer by ${channelName}` },
    {
      action: give ? 'customer.consent_given' : 'customer.consent_withdrawn',
      entityType: 'customer',
      entityId: customerId,
      before: { consent: channel, at: row.at?.toISOString() ?? null },
      after: { consent: channel, at: at?.toISOString() ?? null, keyword: give ? 'START' : 'STOP' },
    },
  );
}
