import type { Config } from '../../../config';

/**
 * Daraja's sandbox short code: what the built-in simulator answers to when no paybill is
 * configured, so messages and the assistant can always say how to pay on a demo or test instance.
 */
const SIMULATOR_PAYBILL = '174379';

/** How a customer pays a contract by mobile money: the paybill, and the contract's number as the account. */
export interface PaymentInstructions {
  payBill: string;
  account: string;
}

/**
 * One answer to "how do I pay?" for every message, template preview and the customer-service
 * assistant: the configured paybill (MPESA_SHORTCODE) and the contract number, which the C2B
 * callback matches on `BillRefNumber` (a device serial or the customer's phone match too).
 */
export function paymentInstructions(
  config: Pick<Config, 'MPESA_SHORTCODE'>,
  contractNumber: string,
): PaymentInstructions {
  return { payBill: config.MPESA_SHORTCODE?.trim() || SIMULATOR_PAYBILL, account: contractNumber };
}
