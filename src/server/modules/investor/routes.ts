import type { AppInstance } from '../../app';

/** Investor codes (issue 16 §2) and the investor portal (§3): aggregates only, under an investor session. */
export async function investorRoutes(_app: AppInstance): Promise<void> {}
