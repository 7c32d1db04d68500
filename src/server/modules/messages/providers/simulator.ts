import { createHash } from 'node:crypto';
import type { MessageProvider } from '../provider';

export const SIMULATOR_PROVIDER_NAME = 'simulator';

/**
 * The default provider of every channel (issue 15): answers at once that the message was
 * delivered, except a share `failureRate` of attempts, which fail as a gateway timeout would
 * (retryable). Which attempts fail is a hash of the message id and attempt number, so a test or a
 * rehearsal sees the same failures on every run, and a retry of a failed message may succeed.
 */
export function simulatorProvider(options: { failureRate: number }): MessageProvider {
  return {
    name: SIMULATOR_PROVIDER_NAME,
    async send(message) {
      if (options.failureRate > 0 && draw(`${message.id}:${message.attempt ?? 1}`) < options.failureRate)
        return { ok: false, reason: 'Simulated failure: the gateway did not answer', retryable: true };
      return { ok: true, providerReference: `sim-${message.id}`, delivered: true };
    },
  };
}

/** A number in [0, 1) from a string, the same for the same string. */
function draw(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) / 2 ** 32;
}
