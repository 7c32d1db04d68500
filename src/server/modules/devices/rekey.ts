import { isNotNull, sql } from 'drizzle-orm';
import { devices } from '../../../db/schema';
import type { TxContext } from '../../context';
import type { Keyring } from '../../secrets';
import { OPENPAYGO_KEY_PURPOSE } from './service';

/**
 * Re-encrypts every unit's OpenPAYGO key from the keyring it was written with to this instance's:
 * a database made from a template built under another app secret (the demo book, decision 025)
 * would otherwise hold keys no token could be generated from. Answers how many it re-encrypted.
 */
export async function rekeyDeviceSecrets(ctx: TxContext, from: Keyring): Promise<number> {
  const rows = await ctx.tx
    .select({ id: devices.id, secret: devices.openpaygoSecret })
    .from(devices)
    .where(isNotNull(devices.openpaygoSecret));
  if (!rows.length) return 0;
  const values = rows.map(
    ({ id, secret }) =>
      sql`(${id}::text, ${ctx.keyring.encrypt(OPENPAYGO_KEY_PURPOSE, from.decrypt(OPENPAYGO_KEY_PURPOSE, secret ?? ''))}::text)`,
  );
  await ctx.tx.execute(sql`
    UPDATE ${devices} SET openpaygo_secret = v.secret
    FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, secret) WHERE ${devices.id} = v.id`);
  return rows.length;
}
