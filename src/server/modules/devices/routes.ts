import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { deviceMetricsEndpoints, METRICS_MAX_BYTES } from '../../../contracts/device-metrics';
import {
  deviceEndpoints,
  deviceModelEndpoints,
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MAX_JSON_BYTES,
} from '../../../contracts/devices';
import { can } from '../../../contracts/roles';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { AppError, badRequest } from '../../errors';
import { listRoute } from '../../list-route';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { importDevices } from './import';
import { deviceList, deviceModelList } from './list';
import { deviceMetricsOf, receiveMetrics } from './metrics';
import { createDeviceModel, getDeviceModel, setDeviceModelActive, updateDeviceModel } from './models';
import { changeDeviceStatus, createDevice, getDevice, updateDevice } from './service';
import { issueToken, listTokens } from './tokens';

const IMPORT_HELP =
  'Send JSON {csv, dryRun} or multipart/form-data with one "file" (CSV) and an optional "dryRun"';

/** A multipart import becomes the JSON body {csv, dryRun} before validation, so both go through one schema. */
async function multipartImportBody(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const body: { csv?: string; dryRun?: unknown } = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || body.csv !== undefined) {
          part.file.resume();
          throw badRequest(`${IMPORT_HELP} (one file)`, [
            { field: part.fieldname, message: 'Send one file, in "file"' },
          ]);
        }
        body.csv = (await part.toBuffer()).toString('utf8');
      } else if (part.fieldname === 'dryRun') {
        const value = String(part.value);
        body.dryRun = value === 'true' ? true : value === 'false' ? false : value;
      } else {
        throw badRequest(`Unknown field "${part.fieldname}"`, [
          { field: part.fieldname, message: `Unknown field "${part.fieldname}"` },
        ]);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        413,
        'FILE_TOO_LARGE',
        'The file is larger than 10 MB; split it into several imports',
        [{ field: 'file', message: 'The file is larger than 10 MB' }],
      );
    }
    throw badRequest(`The upload could not be read: ${IMPORT_HELP}`);
  }
  request.body = body;
}

/** /devices: the device catalogue, the units, their status history and OpenPAYGO tokens. */
export async function deviceRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['devices'];
  const read = { access: 'business.read', tags } as const;
  const write = { access: 'inventory.write', tags } as const;
  const models = deviceModelEndpoints;
  const devices = deviceEndpoints;

  listRoute(app, deviceModelList, read);

  route(app, models.create, write, (request) =>
    withTransaction(ctx, (tx) => createDeviceModel(tx, actorOf(request), request.body)),
  );

  route(app, models.get, read, (request) => getDeviceModel(ctx, request.params.id));

  route(app, models.update, write, (request) =>
    withTransaction(ctx, (tx) => updateDeviceModel(tx, actorOf(request), request.params.id, request.body)),
  );

  route(app, models.deactivate, write, (request) =>
    withTransaction(ctx, (tx) => setDeviceModelActive(tx, actorOf(request), request.params.id, false)),
  );

  route(app, models.activate, write, (request) =>
    withTransaction(ctx, (tx) => setDeviceModelActive(tx, actorOf(request), request.params.id, true)),
  );

  listRoute(app, deviceList, read);

  route(app, devices.create, write, (request) =>
    withTransaction(ctx, (tx) => createDevice(tx, actorOf(request), request.body)),
  );

  // JSON or multipart: the multipart parser and its limits stay in this scope.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fileSize: IMPORT_MAX_FILE_BYTES,
        files: 1,
        fields: 2,
        fieldSize: 100,
        parts: 4,
        headerPairs: 50,
      },
    });
    route(
      scope,
      devices.import,
      {
        ...write,
        bodyLimit: IMPORT_MAX_JSON_BYTES,
        preValidation: multipartImportBody,
        description: `${IMPORT_HELP}. Columns: serial_number, model_sku or model (with make), imei, openpaygo_secret_key, openpaygo_starting_code (not 0), openpaygo_time_divider (1-995). A dry run answers 200 with every row's problems; an import answers 201, or 422 and writes nothing if any row is wrong.`,
      },
      async (request, reply) => {
        const result = await withTransaction(ctx, (tx) => importDevices(tx, actorOf(request), request.body));
        if (result.dryRun) reply.status(200);
        return result;
      },
    );
  });

  route(app, devices.get, read, (request) => getDevice(ctx, request.params.id));

  route(app, devices.update, write, (request) =>
    withTransaction(ctx, (tx) => updateDevice(tx, actorOf(request), request.params.id, request.body)),
  );

  route(app, devices.changeStatus, write, (request) =>
    withTransaction(ctx, (tx) => changeDeviceStatus(tx, actorOf(request), request.params.id, request.body)),
  );

  route(app, devices.issueToken, { access: 'devices.control', tags }, (request) =>
    withTransaction(ctx, (tx) =>
      issueToken(
        tx,
        actorOf(request),
        request.params.id,
        request.body,
        can(request.session?.user, 'devices.override'),
      ),
    ),
  );

  // OpenPAYGO Metrics (decision 029): a device's request is read as text, since its signature
  // covers the numbers as written; the raw-text parser stays in this scope.
  await app.register(async (scope) => {
    scope.removeContentTypeParser(['application/json', 'text/plain']);
    scope.addContentTypeParser(
      ['application/json', 'text/plain'],
      { parseAs: 'string', bodyLimit: METRICS_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    route(
      scope,
      deviceMetricsEndpoints.receive,
      {
        access: 'public',
        csrf: false,
        tags: ['openpaygo'],
        rateLimit: { max: 600, timeWindow: '1 minute' },
        description:
          'OpenPAYGO Metrics: a device sends its signed request (simple or condensed JSON); 201 with the signed answer (tkl tokens after its token count, auts or asl when asked). 400 malformed, 401 bad signature, 404 unknown unit, 409 replay.',
      },
      async (request, reply) => {
        const answer = await withTransaction(ctx, (tx) => receiveMetrics(tx, request.body, request));
        reply.status(201);
        return answer;
      },
    );
  });

  route(app, deviceMetricsEndpoints.list, read, (request) => deviceMetricsOf(ctx, request.params.id));

  // Issued codes are readable by those who talk to customers about their device (collectors and up).
  route(app, devices.tokens, { access: 'devices.requestLock', tags }, (request) =>
    listTokens(ctx, request.params.id),
  );
}
