import type { StkCallback } from '../../../../contracts/payments';

/**
 * A mobile money provider that can ask a customer's phone to approve a payment (STK push,
 * PRODUCT.md section 7: one adapter interface, a local simulator). The provider answers later,
 * through the STK callback (`handleStkCallback`).
 */
export interface PushRequest {
  /** E.164 (+254712345678). */
  phone: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** What the payer sees as the account (the contract number). */
  accountReference: string;
  description: string;
  /** Where the provider sends the result (token included). */
  callbackUrl: string;
  /** The organisation's time zone: the provider's timestamps are wall-clock times there. */
  timeZone: string;
}

export interface PushAccepted {
  checkoutRequestId: string;
  merchantRequestId?: string;
}

export interface MobileMoneyProvider {
  readonly name: string;
  initiatePush(request: PushRequest): Promise<PushAccepted>;
  /** Stops what it still has under way (the simulator's pending answers) at shutdown. */
  close(): void;
}

/** The provider refused the push or could not be reached; the push is recorded as failed with this. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** How the in-process simulator hands its answer to the app: the STK callback's own service. */
export type DeliverCallback = (body: StkCallback) => Promise<'done' | 'unknown' | 'repeat'>;
