import type { AppInstance } from '../../app';

/** Customer portal (issue 16 §1): the customer's own contracts, pay now, tokens, chat and preferences, under a customer session. */
export async function portalRoutes(_app: AppInstance): Promise<void> {}
