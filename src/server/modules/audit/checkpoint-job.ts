import { z } from 'zod';
import { defineJob } from '../../jobs/definition';
import { recordAuditCheckpoint } from './chain';

/**
 * Every 15 minutes: verifies the audit chain and records a checkpoint (decision 016). Rows cut
 * from the end after the newest checkpoint go unnoticed, so this bounds that window. A broken
 * chain fails the run, which the jobs page shows.
 */
export const auditCheckpointJob = defineJob({
  name: 'audit.checkpoint',
  description: 'Verifies the audit chain and records where it stands, so rows cut from its end are noticed',
  payload: z.object({}),
  schedule: { cron: '*/15 * * * *' },
  retry: { limit: 1, delaySeconds: 60, backoff: false },
  expireInSeconds: 900,
  singletonKey: 'audit.checkpoint',
  run: async (ctx) => {
    const state = await recordAuditCheckpoint(ctx);
    if (!state.ok)
      throw new Error(`The audit chain is broken at row ${state.firstBrokenId}: ${state.reason}`);
    return { rows: state.rows, recorded: state.recorded ? 1 : 0 };
  },
});
