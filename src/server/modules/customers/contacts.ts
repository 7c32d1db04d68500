import { inArray, type SQL, sql } from 'drizzle-orm';
import type { MessageChannel } from '../../../contracts/messages';
import { customers } from '../../../db/schema';
import type { Executor } from '../../context';

/**
 * What the message outbox needs of a customer (decision 027): the phone a message goes to, the
 * first name it greets, and the consent to each channel (a timestamp; null = not given).
 */
export interface MessageContact {
  id: string;
  firstName: string;
  phone: string;
  email: string | null;
  language: string;
  consent: Record<MessageChannel, boolean>;
}

export async function messageContacts(
  executor: Executor,
  customerIds: readonly string[],
): Promise<Map<string, MessageContact>> {
  if (!customerIds.length) return new Map();
  const rows = await executor
    .select({
      id: customers.id,
      firstName: customers.firstName,
      phone: customers.phone,
      email: customers.email,
      language: customers.language,
      sms: customers.consentSmsAt,
      whatsapp: customers.consentWhatsappAt,
      emailConsent: customers.consentEmailAt,
    })
    .from(customers)
    .where(inArray(customers.id, [...new Set(customerIds)]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        firstName: row.firstName,
        phone: row.phone,
        email: row.email,
        language: row.language,
        consent: { sms: row.sms !== null, whatsapp: row.whatsapp !== null, email: row.emailConsent !== null },
      },
    ]),
  );
}

/** The same as rows (id, first_name, phone) for another area's set-based statement. */
export function messageContactsSql(): SQL {
  return sql`SELECT cu.id, cu.first_name, cu.phone FROM ${customers} cu`;
}
