import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CUSTOMER_LANGUAGES, type Customer, type CustomerLanguage } from '../../../contracts/customers';
import type { PortalMe, preferencesBody } from '../../../contracts/portal';
import { type Actor, SYSTEM_ACTOR } from '../../audit';
import type { AppContext, Executor, TxContext } from '../../context';
import { fieldError, notFound } from '../../errors';
import { messageContacts } from '../customers/contacts';
import { getCustomer, updateCustomer } from '../customers/service';

const isLanguage = (code: string): code is CustomerLanguage =>
  (CUSTOMER_LANGUAGES as readonly string[]).includes(code);

/** The customer acting in the portal, as audit rows name them. */
export function customerActor(request: FastifyRequest): Actor {
  return { ...SYSTEM_ACTOR, label: 'customer by portal', ip: request.ip, requestId: String(request.id) };
}

/** The customer's own phone (never masked for them), from the customers area. */
export async function ownPhone(executor: Executor, customerId: string): Promise<string> {
  const contact = (await messageContacts(executor, [customerId])).get(customerId);
  if (!contact) throw notFound('Customer not found');
  return contact.phone;
}

function meOf(customer: Customer, phone: string): PortalMe {
  return {
    id: customer.id,
    firstName: customer.firstName,
    lastName: customer.lastName,
    phone,
    language: customer.language,
    consents: {
      sms: customer.consents.sms !== null,
      whatsapp: customer.consents.whatsapp !== null,
      email: customer.consents.email !== null,
    },
  };
}

export async function portalMe(ctx: AppContext, customerId: string): Promise<PortalMe> {
  const [customer, phone] = await Promise.all([
    getCustomer(ctx, customerId, null),
    ownPhone(ctx.db, customerId),
  ]);
  return meOf(customer, phone);
}

/**
 * Language and per-channel consent, changed through the customers area's own update (its
 * version check, risk refresh and consent audit rows), with the customer as the actor.
 */
export async function setPreferences(
  ctx: TxContext,
  actor: Actor,
  customerId: string,
  /** The customer's version as read before the transaction (a change in between is a 409). */
  version: number,
  input: z.output<typeof preferencesBody>,
): Promise<PortalMe> {
  const language = input.language;
  if (language !== undefined && !isLanguage(language))
    throw fieldError('language', `Language must be one of: ${CUSTOMER_LANGUAGES.join(', ')}`);
  const updated = await updateCustomer(ctx, actor, null, customerId, {
    version,
    ...(language ? { language } : {}),
    ...(input.consents ? { consents: input.consents } : {}),
  });
  return meOf(updated, await ownPhone(ctx.tx, customerId));
}
