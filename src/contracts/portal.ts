import type { Endpoint } from './endpoint';

/** Customer portal (issue 16 §1): the customer's own contracts, pay now, tokens, chat and preferences, under a customer session. */
export const portalEndpoints = {} satisfies Record<string, Endpoint>;
