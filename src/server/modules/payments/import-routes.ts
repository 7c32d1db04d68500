import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  IMPORT_FILE_MAX_BYTES,
  IMPORT_METHODS,
  type ImportMapping,
  importMappingSchema,
  paymentImportEndpoints,
  sourceSchema,
} from '../../../contracts/payment-imports';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { AppError, fieldError } from '../../errors';
import { sendCsv, toCsv } from '../../lists';
import { readMultipart } from '../../multipart';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { confirmImport, runImport } from './import-posting';
import {
  createImport,
  discardImport,
  importList,
  importPreview,
  importRows,
  importView,
  mappingOfSource,
  refusedRows,
  remapImport,
  splitError,
  type Upload,
} from './imports';

const UPLOAD_HELP =
  'Send multipart/form-data with one "file" (CSV or XLSX), "source", "method" and optionally "mapping" (JSON)';

/** How long confirm waits for a small import to finish before answering with its progress. */
const CONFIRM_WAIT_MS = 2000;

/** The upload's fields and its one file; the multipart limits stop an oversized file while it streams. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  const form = await readMultipart(request, {
    help: UPLOAD_HELP,
    fields: ['source', 'method', 'mapping'],
    tooLarge: { message: 'The file is larger than 10 MB', advice: 'split it into several imports' },
  });
  const { fields } = form;
  const file = form.file && { name: form.file.name || 'statement', data: form.file.data };
  const source = sourceSchema.safeParse(fields.source ?? '');
  if (!source.success) throw fieldError('source', source.error.issues[0]?.message ?? 'Name the source');
  const method = z.enum(IMPORT_METHODS).safeParse(fields.method);
  if (!method.success) throw fieldError('method', `method must be one of: ${IMPORT_METHODS.join(', ')}`);
  let mapping: ImportMapping | null = null;
  if (fields.mapping) {
    let json: unknown;
    try {
      json = JSON.parse(fields.mapping);
    } catch {
      throw fieldError('mapping', 'mapping must be JSON');
    }
    const parsed = importMappingSchema.safeParse(json);
    if (!parsed.success) {
      throw new AppError(
        400,
        'VALIDATION',
        'The mapping is not complete',
        parsed.error.issues.map((issue) => ({
          field: ['mapping', ...issue.path].join('.'),
          message: issue.message,
        })),
      );
    }
    mapping = parsed.data;
  }
  if (!file || file.data.length === 0) throw fieldError('file', 'Choose a statement file (CSV or XLSX)');
  return { fileName: file.name, data: file.data, source: source.data, method: method.data, mapping };
}

/** /api/payment-imports: statement files previewed row by row, posted when confirmed (finance). */
export async function paymentImportRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const manage = { access: 'payments.manage', tags: ['payments'] } as const;
  const endpoints = paymentImportEndpoints;

  route(app, endpoints.list, manage, (request) => importList(ctx, ctx.db, request.query.page));

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fileSize: IMPORT_FILE_MAX_BYTES,
        files: 1,
        fields: 3,
        fieldSize: 4000,
        parts: 6,
        headerPairs: 50,
      },
    });
    route(
      scope,
      endpoints.upload,
      {
        ...manage,
        description: `${UPLOAD_HELP}. Answers the preview: every row checked, nothing posted until confirmed.`,
      },
      async (request) => {
        const upload = await readUpload(request);
        const id = await withTransaction(ctx, (tx) => createImport(tx, actorOf(request), upload));
        return importPreview(ctx, ctx.db, id);
      },
    );
  });

  route(app, endpoints.get, manage, (request) => importView(ctx, ctx.db, request.params.id));

  route(app, endpoints.remap, manage, async (request) => {
    await withTransaction(ctx, (tx) =>
      remapImport(tx, actorOf(request), request.params.id, request.body.mapping),
    );
    return importPreview(ctx, ctx.db, request.params.id);
  });

  route(app, endpoints.rows, manage, (request) => importRows(ctx, ctx.db, request.params.id, request.query));

  route(app, endpoints.confirm, manage, async (request) => {
    const actor = actorOf(request);
    await withTransaction(ctx, (tx) => confirmImport(tx, actor, request.params.id));
    // Posting runs on after the answer for a large file; the web polls `get` for the progress.
    // A run that fails is logged and left to the job `payments.import-post`; the answer shows
    // the import as it stands.
    const run = runImport(ctx, actor, request.params.id).catch(() => undefined);
    await Promise.race([run, new Promise((resolve) => setTimeout(resolve, CONFIRM_WAIT_MS).unref())]);
    return importView(ctx, ctx.db, request.params.id);
  });

  route(app, endpoints.discard, manage, async (request) => {
    await withTransaction(ctx, (tx) => discardImport(tx, actorOf(request), request.params.id));
    return importView(ctx, ctx.db, request.params.id);
  });

  route(app, endpoints.refused, manage, async (request, reply) => {
    const { fileName, columns, rows } = await refusedRows(ctx.db, request.params.id);
    const csv = toCsv(rows, [
      { header: 'Row', value: (row) => row.row_number },
      ...columns.map((name, index) => ({
        header: name,
        value: (row: (typeof rows)[number]) => row.raw.cells[index] ?? '',
      })),
      { header: 'Issue', value: (row) => splitError(row.error).issue },
      { header: 'Problem', value: (row) => splitError(row.error).words },
    ]);
    return sendCsv(reply, `${fileName.replace(/\.[^.]*$/, '')}-refused.csv`, csv);
  });

  route(app, endpoints.mapping, manage, (request) => mappingOfSource(ctx.db, request.query.source));
}
