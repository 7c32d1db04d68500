import type { FastifyRequest } from 'fastify';
import { deviceControlEndpoints as endpoints } from '../../../../contracts/device-control';
import type { AppInstance } from '../../../app';
import { actorOf } from '../../../audit';
import { listRoute } from '../../../list-route';
import { route } from '../../../route';
import { withTransaction } from '../../../transaction';
import { COMMANDS_QUEUED } from '../commands';
import { acknowledgeCommand } from './acknowledge';
import { deliverCommandsJob } from './job';
import { queueBulkCommand, queueManualCommand } from './manual';
import { commandList, deviceCommandHistory, fleetSummary, getCommand } from './read';
import { readControlSettings, toControlSettings, updateControlSettings } from './settings';
import { testProvider } from './test-provider';

const RAW_BODY = Symbol('rawBody');
type WithRawBody = FastifyRequest & { [RAW_BODY]?: string };

/** Device control (decision 028): fleet, command log, manual and bulk commands, provider settings, the lock API's callback. */
export async function deviceControlRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['device-control'];
  const read = { access: 'devices.requestLock', tags } as const;
  const command = { access: 'devices.command', tags } as const;
  const admin = { access: 'admin.integrations', tags } as const;

  /**
   * Wakes the delivery job when commands were queued anywhere (a person's, a payment's unlock, a
   * close's locks), so they go out at once, not at the next minute. The bus calls this when the
   * command is written, after its commit and again when the NOTIFY arrives: calls within a moment
   * are one wake, and a wake while a run is active queues one more run (the job's stately policy).
   */
  let waking: NodeJS.Timeout | undefined;
  ctx.bus.on(COMMANDS_QUEUED, () => {
    if (!app.jobs.running || waking) return;
    waking = setTimeout(() => {
      waking = undefined;
      if (!app.jobs.running) return;
      app.jobs.send(deliverCommandsJob, {}).catch((error: unknown) => {
        ctx.log.error({ err: error }, 'could not wake the device command delivery');
      });
    }, 100);
    waking.unref();
  });

  route(app, endpoints.fleet, read, () => fleetSummary(ctx));
  listRoute(app, commandList, read);
  route(app, endpoints.command, read, (request) => getCommand(ctx, request.params.id));
  route(app, endpoints.deviceCommands, read, (request) => deviceCommandHistory(ctx, request.params.id));

  route(app, endpoints.manual, command, async (request) => {
    return withTransaction(ctx, (tx) =>
      queueManualCommand(tx, actorOf(request), request.params.id, request.body),
    );
  });

  route(app, endpoints.bulk, command, async (request) => {
    return withTransaction(ctx, (tx) => queueBulkCommand(tx, actorOf(request), request.body));
  });

  route(app, endpoints.settings, admin, async () => toControlSettings(await readControlSettings(ctx.db)));
  route(app, endpoints.updateSettings, admin, (request) =>
    withTransaction(ctx, (tx) => updateControlSettings(tx, actorOf(request), request.body)),
  );
  route(app, endpoints.testProvider, admin, () => testProvider(ctx));

  // The callback's signature covers the body as sent: this scope keeps the raw text beside the parsed JSON.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      (request as WithRawBody)[RAW_BODY] = text;
      if (!text)
        return done(
          Object.assign(new Error('empty body'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }),
          undefined,
        );
      try {
        done(null, JSON.parse(text));
      } catch {
        done(
          Object.assign(new Error('invalid JSON'), {
            code: 'FST_ERR_CTP_INVALID_JSON_BODY',
            statusCode: 400,
          }),
          undefined,
        );
      }
    });
    route(
      scope,
      endpoints.ack,
      { access: 'public', csrf: false, tags: ['webhooks'], rateLimit: { max: 600, timeWindow: '1 minute' } },
      (request) =>
        withTransaction(ctx, (tx) =>
          acknowledgeCommand(
            tx,
            (request as WithRawBody)[RAW_BODY] ?? '',
            request.headers['x-signature'],
            request.body,
          ),
        ),
    );
  });
}
