import type { FastifyRequest } from 'fastify';
import type { PortalToken } from '../../../contracts/portal';
import type { TxContext } from '../../context';
import { notFound, tooManyRequests } from '../../errors';
import { latestTokenMessage } from '../messages/conversation-outbox';
import { queueMessage } from '../messages/outbox';
import { customerActor } from './account';

/** A token message, sent or re-sent, within this time holds back the next resend. */
export const RESEND_INTERVAL_MS = 2 * 60_000;

/**
 * "Resend by SMS": the contract's latest unlock code queued again through the outbox, as the
 * payment that bought it queued it (the `token` template). At most one every 2 minutes per
 * customer, counted from the outbox's own latest token message, so it holds across instances.
 */
export async function resendToken(
  ctx: TxContext,
  request: FastifyRequest,
  customerId: string,
  contract: { id: string; number: string },
  token: PortalToken | null,
): Promise<void> {
  if (!token) throw notFound('There is no unlock code on this contract yet');
  const last = await latestTokenMessage(ctx.tx, customerId);
  const wait = last ? last.createdAt.getTime() + RESEND_INTERVAL_MS - ctx.clock.now().getTime() : 0;
  if (wait > 0)
    throw tooManyRequests(
      'Your unlock code was sent less than 2 minutes ago. Wait a moment for the SMS before asking again.',
      Math.ceil(wait / 1000),
    );
  await queueMessage(ctx, customerActor(request), {
    customerId,
    contractId: contract.id,
    template: 'token',
    variables: {
      contractNumber: contract.number,
      token: token.token,
      tokenDescription:
        token.days === null ? 'unlocks the device' : `${token.days} day${token.days === 1 ? '' : 's'} of use`,
    },
    source: { type: 'portal', id: contract.id },
  });
}
