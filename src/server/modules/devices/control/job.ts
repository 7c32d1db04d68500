import { z } from 'zod';
import { defineJob } from '../../../jobs/definition';
import { deliverDueCommands } from './delivery';

/**
 * Delivers the device command log (decision 028): every minute, and at once when a person queues
 * a command (the routes send it after their commit). One run at a time per instance queue; two
 * instances' runs could still overlap at a slot edge, which the claim's SKIP LOCKED makes harmless.
 */
export const deliverCommandsJob = defineJob({
  name: 'devices.deliver-commands',
  description:
    'Delivers queued device commands (lock, unlock, token, release) to their providers, with retries',
  payload: z.object({}),
  schedule: { cron: '* * * * *' },
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 15 * 60,
  singletonKey: 'devices.deliver-commands',
  run: async (ctx) => ({ ...(await deliverDueCommands(ctx)) }),
});
