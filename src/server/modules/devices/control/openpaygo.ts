import { eq } from 'drizzle-orm';
import { deviceCommands } from '../../../../db/schema';
import type { AppContext, TxContext } from '../../../context';
import { withTransaction } from '../../../transaction';
import { issueTokenInTransaction, recordUseGiven } from '../tokens';
import { type CommandProvider, DeliveryError } from './provider';

/** A token issued for a command, as delivered to the customer. */
export interface TokenForCustomer {
  deviceId: string;
  contractId: string | null;
  tokenId: string;
  token: string;
  type: string;
  days: number | null;
}

/**
 * COORDINATOR: wire the message outbox here at merge (issue 14 §5, another helper's part). The
 * token should be queued as a `token` message to the contract's customer through the outbox, in
 * this transaction. Until then the token is only recorded in the unit's token history (device_tokens,
 * shown on the device and contract pages), which `issueTokenInTransaction` already did, and this
 * answers how it was delivered, for the attempt's record.
 */
export async function deliverTokenToCustomer(
  _ctx: TxContext,
  token: TokenForCustomer,
): Promise<{ channel: 'token_history'; note: string }> {
  return {
    channel: 'token_history',
    note: `Token #${token.tokenId} recorded in the unit's token history; the message outbox will send it`,
  };
}

/**
 * OpenPAYGO (decision 028): a `token` command issues an ADD_TIME token for its days, a `release`
 * a DISABLE_PAYG token; either is delivered to the customer (`deliverTokenToCustomer`) and the
 * command is acknowledged at once (the unit needs no network: the customer types the code). The
 * token is issued once per command: a retried attempt finds it in the payload and sends it again.
 */
export function openPaygoProvider(ctx: AppContext): CommandProvider {
  return {
    name: 'openpaygo',
    async deliver(request) {
      if (request.kind !== 'token' && request.kind !== 'release')
        throw new DeliveryError(
          `OpenPAYGO units take no ${request.kind} command: their time runs out by itself`,
        );
      return withTransaction(ctx, async (tx) => {
        const [row] = await tx.tx
          .select({ payload: deviceCommands.payload })
          .from(deviceCommands)
          .where(eq(deviceCommands.id, request.commandId))
          .for('update');
        const payload = (row?.payload ?? {}) as Record<string, unknown>;
        let token = payload.token as TokenForCustomer | undefined;
        if (!token) {
          const days = typeof payload.days === 'number' ? payload.days : null;
          const issued = await issueTokenInTransaction(
            tx,
            request.device.id,
            request.kind === 'release' ? { type: 'DISABLE_PAYG' } : { type: 'ADD_TIME', days: days ?? 0 },
            request.requestedBy,
            request.contractId,
          );
          // A release's state follows its acknowledgement (`recordLockState`), with its audit row.
          if (request.kind === 'token') await recordUseGiven(tx, request.device.id, issued);
          token = {
            deviceId: request.device.id,
            contractId: request.contractId,
            tokenId: issued.id,
            token: issued.token,
            type: issued.type,
            days: issued.value,
          };
          await tx.tx
            .update(deviceCommands)
            .set({ payload: { ...payload, token } })
            .where(eq(deviceCommands.id, request.commandId));
        }
        const delivery = await deliverTokenToCustomer(tx, token);
        return {
          outcome: 'acknowledged' as const,
          response: { tokenId: token.tokenId, type: token.type, days: token.days, delivery },
        };
      });
    },
  };
}
