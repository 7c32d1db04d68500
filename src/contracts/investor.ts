import type { Endpoint } from './endpoint';

/** Investor codes (issue 16 §2) and the investor portal (§3): aggregates only, under an investor session. */
export const investorEndpoints = {} satisfies Record<string, Endpoint>;
