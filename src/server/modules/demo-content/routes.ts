import type { AppInstance } from '../../app';

/** The public financing demo (issue 16 §4) and its editor (§5). */
export async function demoContentRoutes(_app: AppInstance): Promise<void> {}
