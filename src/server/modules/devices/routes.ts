import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deviceCreateBody,
  deviceDetailSchema,
  deviceImportBody,
  deviceImportResultSchema,
  deviceModelCreateBody,
  deviceModelSchema,
  deviceModelUpdateBody,
  deviceStatusBody,
  deviceTokenSchema,
  deviceUpdateBody,
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MAX_JSON_BYTES,
  issuedTokenSchema,
  tokenCreateBody,
} from '../../../contracts/devices';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { AppError, badRequest } from '../../errors';
import { listRoute } from '../../list-route';
import { withTransaction } from '../../transaction';
import { importDevices } from './import';
import { deviceList, deviceModelList } from './list';
import { createDeviceModel, getDeviceModel, setDeviceModelActive, updateDeviceModel } from './models';
import { changeDeviceStatus, createDevice, getDevice, updateDevice } from './service';
import { issueToken, listTokens } from './tokens';

const modelParams = z.object({ id: z.uuid('Not a valid device model id') });
const deviceParams = z.object({ id: z.uuid('Not a valid device id') });

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

  listRoute(app, deviceModelList, { access: 'business.read', tags });

  app.post(
    '/api/device-models',
    {
      config: { access: 'inventory.write' },
      schema: { tags, body: deviceModelCreateBody, response: { 201: deviceModelSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await withTransaction(ctx, (tx) => createDeviceModel(tx, actorOf(request), request.body))),
  );

  app.get(
    '/api/device-models/:id',
    {
      config: { access: 'business.read' },
      schema: { tags, params: modelParams, response: { 200: deviceModelSchema } },
    },
    (request) => getDeviceModel(ctx, request.params.id),
  );

  app.patch(
    '/api/device-models/:id',
    {
      config: { access: 'inventory.write' },
      schema: {
        tags,
        params: modelParams,
        body: deviceModelUpdateBody,
        response: { 200: deviceModelSchema },
      },
    },
    (request) =>
      withTransaction(ctx, (tx) => updateDeviceModel(tx, actorOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/device-models/:id/deactivate',
    {
      config: { access: 'inventory.write' },
      schema: { tags, params: modelParams, response: { 200: deviceModelSchema } },
    },
    (request) =>
      withTransaction(ctx, (tx) => setDeviceModelActive(tx, actorOf(request), request.params.id, false)),
  );

  app.post(
    '/api/device-models/:id/activate',
    {
      config: { access: 'inventory.write' },
      schema: { tags, params: modelParams, response: { 200: deviceModelSchema } },
    },
    (request) =>
      withTransaction(ctx, (tx) => setDeviceModelActive(tx, actorOf(request), request.params.id, true)),
  );

  listRoute(app, deviceList, { access: 'business.read', tags });

  app.post(
    '/api/devices',
    {
      config: { access: 'inventory.write' },
      schema: { tags, body: deviceCreateBody, response: { 201: deviceDetailSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await withTransaction(ctx, (tx) => createDevice(tx, actorOf(request), request.body))),
  );

  // JSON or multipart: the multipart parser and its limits stay in this scope.
  await app.register(async (scope) => {
    const imports = scope.withTypeProvider<ZodTypeProvider>();
    await imports.register(fastifyMultipart, {
      limits: {
        fileSize: IMPORT_MAX_FILE_BYTES,
        files: 1,
        fields: 2,
        fieldSize: 100,
        parts: 4,
        headerPairs: 50,
      },
    });
    imports.post(
      '/api/devices/import',
      {
        config: { access: 'inventory.write' },
        bodyLimit: IMPORT_MAX_JSON_BYTES,
        preValidation: multipartImportBody,
        schema: {
          tags,
          description: `${IMPORT_HELP}. Columns: serial_number, model_sku or model (with make), imei, openpaygo_secret_key, openpaygo_starting_code. A dry run answers 200 with every row's problems; an import answers 201, or 422 and writes nothing if any row is wrong.`,
          body: deviceImportBody,
          response: { 200: deviceImportResultSchema, 201: deviceImportResultSchema },
        },
      },
      async (request, reply) => {
        const result = await withTransaction(ctx, (tx) => importDevices(tx, actorOf(request), request.body));
        return reply.status(result.dryRun ? 200 : 201).send(result);
      },
    );
  });

  app.get(
    '/api/devices/:id',
    {
      config: { access: 'business.read' },
      schema: { tags, params: deviceParams, response: { 200: deviceDetailSchema } },
    },
    (request) => getDevice(ctx, request.params.id),
  );

  app.patch(
    '/api/devices/:id',
    {
      config: { access: 'inventory.write' },
      schema: { tags, params: deviceParams, body: deviceUpdateBody, response: { 200: deviceDetailSchema } },
    },
    (request) =>
      withTransaction(ctx, (tx) => updateDevice(tx, actorOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/devices/:id/status',
    {
      config: { access: 'inventory.write' },
      schema: { tags, params: deviceParams, body: deviceStatusBody, response: { 200: deviceDetailSchema } },
    },
    (request) =>
      withTransaction(ctx, (tx) => changeDeviceStatus(tx, actorOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/devices/:id/tokens',
    {
      config: { access: 'devices.control' },
      schema: { tags, params: deviceParams, body: tokenCreateBody, response: { 201: issuedTokenSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await withTransaction(ctx, (tx) =>
            issueToken(tx, actorOf(request), request.params.id, request.body),
          ),
        ),
  );

  // Issued codes are readable by those who talk to customers about their device (collectors and up).
  app.get(
    '/api/devices/:id/tokens',
    {
      config: { access: 'devices.requestLock' },
      schema: { tags, params: deviceParams, response: { 200: z.array(deviceTokenSchema) } },
    },
    (request) => listTokens(ctx, request.params.id),
  );
}
