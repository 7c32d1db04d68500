import { messagingSettingsEndpoints as endpoints } from '../../../contracts/messaging-settings';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { unauthorized } from '../../errors';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { type DeliveryState, recordDeliveryStatus, SMS_PROVIDER_NAME } from './delivery-status';
import { sendMessagesJob } from './sender';
import {
  readMessagingSettings,
  smsCallbackTokenValid,
  toMessagingSettings,
  updateMessagingSettings,
} from './settings';
import { sendTestMessage } from './test-send';
import { MESSAGES_QUEUED } from './wake';

/**
 * An Africa's Talking delivery report's status, as ours: `Success` is delivered; `Sent`,
 * `Submitted` and `Buffered` are on their way (nothing to change); `Failed`, `Rejected`, `Expired`
 * and `AbsentSubscriber` did not arrive. Null for a status we do not know (ignored).
 */
export function smsDeliveryState(status: string): DeliveryState | null {
  const value = status.trim().toLowerCase();
  if (value === 'success' || value === 'delivered') return 'delivered';
  if (['sent', 'submitted', 'buffered', 'queued'].includes(value)) return 'sent';
  if (['failed', 'rejected', 'expired', 'absentsubscriber', 'undelivered'].includes(value)) return 'failed';
  return null;
}

/** Messaging providers (issue 15): their settings under integrations, a test send, the SMS gateway's delivery reports. */
export async function deliveryRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const admin = { access: 'admin.integrations', tags: ['messaging'] } as const;

  /**
   * Wakes the sender when a message was queued anywhere (a payment's token, a reply), so it goes
   * out at once, not at the next tick. Calls within a moment are one wake; a wake while a run is
   * active queues one more run (the job is a singleton).
   */
  let waking: NodeJS.Timeout | undefined;
  ctx.bus.on(MESSAGES_QUEUED, () => {
    if (!app.jobs.running || waking) return;
    waking = setTimeout(() => {
      waking = undefined;
      if (!app.jobs.running) return;
      app.jobs.send(sendMessagesJob, {}).catch((error: unknown) => {
        ctx.log.error({ err: error }, 'could not wake the message sender');
      });
    }, 100);
    waking.unref();
  });

  route(app, endpoints.settings, admin, async () =>
    toMessagingSettings(ctx, await readMessagingSettings(ctx.db)),
  );
  route(app, endpoints.updateSettings, admin, (request) =>
    withTransaction(ctx, (tx) => updateMessagingSettings(tx, actorOf(request), request.body)),
  );
  route(app, endpoints.test, admin, (request) => sendTestMessage(ctx, request.body));

  // Gateways post their reports as a form (Africa's Talking) or JSON: this scope reads both.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    route(
      scope,
      endpoints.smsStatus,
      { access: 'public', csrf: false, tags: ['webhooks'], rateLimit: { max: 3000, timeWindow: '1 minute' } },
      async (request) => {
        // The token is checked before anything is read or written.
        if (!smsCallbackTokenValid(ctx, request.query.token))
          throw unauthorized('Invalid or missing callback token');
        const { id, status, failureReason } = request.body;
        const state = smsDeliveryState(status);
        if (state) {
          const matched = await withTransaction(ctx, (tx) =>
            recordDeliveryStatus(tx, {
              provider: SMS_PROVIDER_NAME,
              reference: id,
              status: state,
              reason: failureReason ? `${status}: ${failureReason}` : status,
            }),
          );
          // Answered 200 either way: a gateway retries anything else, and an unknown id stays unknown.
          if (!matched) request.log.info({ id, status }, 'SMS delivery report for an unknown message');
        }
        return { ok: true as const };
      },
    );
  });
}
