import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '../../../../contracts/errors';
import { deviceCommands } from '../../../../db/schema';
import type { TxContext } from '../../../context';
import { AppError, conflict, notFound } from '../../../errors';
import { settle } from './delivery';
import { DeliveryError } from './provider';
import { lockApiSecretOf, readControlSettings } from './settings';
import { verifySignature } from './signature';

export interface AckBody {
  commandId: string;
  status: 'acknowledged' | 'failed';
  error?: string | undefined;
}

/**
 * POST /api/webhooks/device-control/ack: a lock API acknowledges (or reports the failure of) a
 * command it accepted. The raw body must be signed with the shared secret (signature.ts); nothing
 * is read or written before that holds. A repeat of an acknowledgement already recorded answers ok.
 */
export async function acknowledgeCommand(
  ctx: TxContext,
  rawBody: string,
  signature: string | undefined,
  body: AckBody,
): Promise<{ ok: true }> {
  const settings = await readControlSettings(ctx.tx);
  const secret = lockApiSecretOf(ctx, settings);
  if (!secret || !verifySignature(secret, rawBody, signature, ctx.clock.now()))
    throw new AppError(401, ERROR_CODES.BAD_SIGNATURE, 'The signature is missing or wrong');
  const [row] = await ctx.tx
    .select({ state: deviceCommands.state, attempts: deviceCommands.attempts })
    .from(deviceCommands)
    .where(eq(deviceCommands.id, body.commandId));
  if (!row) throw notFound('No such command');
  if (row.state === 'acknowledged' && body.status === 'acknowledged') return { ok: true };
  if (row.state !== 'sent')
    throw conflict(`The command is ${row.state}, not awaiting an acknowledgement`, ERROR_CODES.COMMAND_STATE);
  const result =
    body.status === 'acknowledged'
      ? { outcome: 'acknowledged' as const, response: { callback: body } }
      : new DeliveryError(body.error ?? 'The provider reported a failure', { callback: body });
  await settle(ctx, body.commandId, row.attempts, result, settings);
  return { ok: true };
}
