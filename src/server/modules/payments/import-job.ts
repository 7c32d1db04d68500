import { z } from 'zod';
import { defineJob } from '../../jobs/definition';
import { postingImportsKey, resumeImports } from './import-posting';

/**
 * Statement imports left `posting` are posted on (decision 009's queue): an import whose instance
 * stopped mid-way (a restart, a deploy), or whose run failed on a chunk, would otherwise show its
 * progress bar for ever. Sent each minute while an import is `posting`; a run under way in this
 * instance is joined, not repeated. A failure is a failed run: the queue retries it.
 */
export const importPostJob = defineJob({
  name: 'payments.import-post',
  description: 'Posts on the statement imports left posting (an instance stopped, or a chunk failed)',
  payload: z.object({}),
  schedule: { whenChanged: postingImportsKey },
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 60 * 60,
  singletonKey: 'payments.import-post',
  run: async (ctx) => ({ ...(await resumeImports(ctx)) }),
});
