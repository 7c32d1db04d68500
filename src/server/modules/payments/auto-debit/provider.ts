import { createHash } from 'node:crypto';
import type { MandateMethod } from '../../../../contracts/payments';

export interface DebitRequest {
  method: MandateMethod;
  /** The payer's account at the provider (a phone, a card token, a bank account). */
  account: string;
  amount: number;
  currency: string;
  /** Ours, unique per attempt: a provider that sees it twice answers the first result. */
  reference: string;
}

export type DebitResult =
  | { ok: true; providerReference: string }
  | { ok: false; reason: string; retryable: boolean };

/** A collection provider that debits a payer under a mandate (decision 021). */
export interface DebitProvider {
  /** Recorded as the payment's provider. */
  name: string;
  debit(request: DebitRequest): Promise<DebitResult>;
}

/** Failures a payer's account can give that may pass another day. */
const RETRYABLE_REASONS = ['insufficient funds', 'provider timeout', 'daily limit reached'] as const;
/** Failures that will not pass by waiting: the mandate needs a person. */
const PERMANENT_REASONS = ['mandate revoked at bank', 'account closed'] as const;

export interface SimulatorOptions {
  /** Share of debits that fail, 0 to 1 (AUTO_DEBIT_FAILURE_RATE). */
  failureRate: number;
  /** Share of those failures that are permanent (not retried; the mandate is paused). */
  permanentShare?: number;
}

/** A number in [0, 1) from a reference and a purpose: the same every time. */
function draw(reference: string, purpose: string): number {
  const digest = createHash('sha256').update(`${purpose}:${reference}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/**
 * The simulator provider (no real collection network is reachable): each debit fails with the
 * configured probability, decided by a hash of its reference so a re-run or a test gets the same
 * answer; a failure is permanent with `permanentShare` (default a fifth), and its reason is drawn
 * the same way. Success answers a provider reference derived from ours.
 */
export function simulatorProvider({ failureRate, permanentShare = 0.2 }: SimulatorOptions): DebitProvider {
  return {
    name: 'simulator',
    async debit(request) {
      if (draw(request.reference, 'fail') < failureRate) {
        const permanent = draw(request.reference, 'permanent') < permanentShare;
        const reasons = permanent ? PERMANENT_REASONS : RETRYABLE_REASONS;
        const reason = reasons[Math.floor(draw(request.reference, 'reason') * reasons.length)] as string;
        return { ok: false, reason, retryable: !permanent };
      }
      const digest = createHash('sha256').update(`ok:${request.reference}`).digest('hex');
      return { ok: true, providerReference: `SIM-${digest.slice(0, 16).toUpperCase()}` };
    },
  };
}
