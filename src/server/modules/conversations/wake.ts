import type { AppInstance } from '../../app';
import { sendMessagesJob } from '../messages/sender';

/**
 * Wakes the outbox's sender when a conversation queued a reply, so the answer goes out now rather
 * than at the sender's next minute; calls within a moment are one wake. A no-op where the job
 * queue does not run (tests, a starting server).
 */
export function senderWaker(app: AppInstance): (queued: boolean) => void {
  let waking: NodeJS.Timeout | undefined;
  return (queued) => {
    if (!queued || !app.jobs.running || waking) return;
    waking = setTimeout(() => {
      waking = undefined;
      if (!app.jobs.running) return;
      app.jobs.send(sendMessagesJob, {}).catch((error: unknown) => {
        app.ctx.log.error({ err: error }, 'could not wake the message sender');
      });
    }, 100);
    waking.unref();
  };
}
