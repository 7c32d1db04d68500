import type { Endpoint } from './endpoint';

/** The public financing demo (issue 16 §4) and its editor (§5). */
export const demoEndpoints = {} satisfies Record<string, Endpoint>;
