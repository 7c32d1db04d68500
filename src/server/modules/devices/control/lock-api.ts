import { SIGNATURE_HEADER } from '../../../../contracts/device-control';
import type { Clock } from '../../../context';
import { answerJson, type OutboundAnswer, outboundFailure, outboundRequest } from '../../../outbound-http';
import { type CommandProvider, DeliveryError, type DeliveryResult } from './provider';
import { signBody } from './signature';

export interface LockApiOptions {
  url: string;
  secret: string;
  clock: Clock;
  timeoutMs?: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

/**
 * A lock API in the manner of Knox Guard (decision 028): each command is a JSON POST to the
 * configured URL, signed with the shared secret (`X-Signature`, signature.ts), with an idempotency
 * key per attempt. A 2xx answer `{status: "acknowledged"}` completes the command; `{status:
 * "accepted"}` means the provider will call back (`POST /api/webhooks/device-control/ack`, signed
 * the same way); anything else, or no answer within 10 s, is a failed attempt.
 */
export function lockApiProvider(options: LockApiOptions): CommandProvider {
  const post = async (message: Record<string, unknown>, idempotencyKey: string) => {
    const body = JSON.stringify(message);
    let response: OutboundAnswer;
    try {
      response = await outboundRequest(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signBody(options.secret, body, options.clock.now()),
          'idempotency-key': idempotencyKey,
        },
        body,
        timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
      });
    } catch (error) {
      throw new DeliveryError(`The lock API could not be reached: ${outboundFailure(error)}`, {
        url: options.url,
      });
    }
    const { text } = response;
    const json = answerJson<unknown>(response);
    const answer = { httpStatus: response.status, body: json ?? text.slice(0, 500) };
    if (!response.ok)
      throw new DeliveryError(`The lock API answered ${response.status}: ${describe(json, text)}`, answer);
    return { json, answer };
  };
  return {
    name: 'lock_api',
    async deliver(request): Promise<DeliveryResult> {
      const { json, answer } = await post(
        {
          type: 'command',
          commandId: request.commandId,
          command: request.kind,
          attempt: request.attempt,
          device: { serialNumber: request.device.serialNumber, imei: request.device.imei },
          reason: request.reason,
        },
        `${request.commandId}:${request.attempt}`,
      );
      const status = (json as { status?: unknown } | null)?.status;
      if (status === 'acknowledged' || status === 'accepted') return { outcome: status, response: answer };
      throw new DeliveryError(`The lock API answered without a known status (${String(status)})`, answer);
    },
    async test() {
      const started = Date.now();
      await post({ type: 'ping' }, `ping:${started}`);
      return `The lock API answered in ${Date.now() - started} ms`;
    },
  };
}

function describe(json: unknown, text: string): string {
  const message =
    (json as { message?: unknown; error?: unknown } | null)?.message ??
    (json as { error?: unknown } | null)?.error;
  return typeof message === 'string' ? message.slice(0, 300) : text.slice(0, 300) || 'no body';
}
