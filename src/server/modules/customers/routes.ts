import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  customerEndpoints,
  KYC_DOCUMENT_TYPES,
  KYC_MAX_FILE_BYTES,
  type KycDocumentType,
} from '../../../contracts/customers';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { fieldError } from '../../errors';
import { listRoute } from '../../list-route';
import { readMultipart } from '../../multipart';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { documentFile, listDocuments, reviewDocument, type Upload, uploadDocument } from './kyc';
import { customerList } from './list';
import {
  createCustomer,
  customerTimeline,
  getCustomer,
  listRegions,
  listTags,
  updateCustomer,
} from './service';

const UPLOAD_HELP = 'Send multipart/form-data with a "type" field and one "file"';

/** The upload's fields and its one file; the multipart limits stop an oversized file while it streams. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  const { fields, file } = await readMultipart(request, {
    help: UPLOAD_HELP,
    fields: ['type'],
    tooLarge: { message: 'The file is larger than 10 MB', advice: 'upload a smaller scan or photo' },
  });
  const type = fields.type;
  if (!type || !(KYC_DOCUMENT_TYPES as readonly string[]).includes(type)) {
    throw fieldError('type', `Document type must be one of: ${KYC_DOCUMENT_TYPES.join(', ')}`);
  }
  if (!file) throw fieldError('file', 'Choose a file to upload');
  return { type: type as KycDocumentType, fileName: file.name, data: file.data };
}

/** An inline download whose name survives any character (RFC 6266 / 5987). */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** /customers: customers, their KYC documents and their record (PRODUCT.md section 2, Customer). */
export async function customerRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const read = { access: 'business.read', tags: ['customers'] } as const;
  const write = { access: 'customers.write', tags: ['customers'] } as const;

  listRoute(app, customerList, read);

  route(app, customerEndpoints.regions, read, () => listRegions(ctx));
  route(app, customerEndpoints.tags, read, () => listTags(ctx));

  route(app, customerEndpoints.create, write, (request) =>
    withTransaction(ctx, (tx) => createCustomer(tx, actorOf(request), request.session?.user, request.body)),
  );

  route(app, customerEndpoints.get, read, (request) =>
    getCustomer(ctx, request.params.id, request.session?.user),
  );

  route(app, customerEndpoints.update, write, (request) =>
    withTransaction(ctx, (tx) =>
      updateCustomer(tx, actorOf(request), request.session?.user, request.params.id, request.body),
    ),
  );

  route(app, customerEndpoints.timeline, read, (request) => customerTimeline(ctx, request.params.id));

  route(app, customerEndpoints.documents, read, (request) => listDocuments(ctx, request.params.id));

  // Multipart only here: the plugin's parser and limits stay in this scope.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fileSize: KYC_MAX_FILE_BYTES,
        files: 1,
        fields: 5,
        fieldSize: 1000,
        parts: 8,
        headerPairs: 50,
      },
    });
    route(
      scope,
      customerEndpoints.uploadDocument,
      { ...write, description: `${UPLOAD_HELP}. JPEG, PNG or PDF (recognised by content), at most 10 MB.` },
      async (request) => {
        const upload = await readUpload(request);
        return withTransaction(ctx, (tx) => uploadDocument(tx, actorOf(request), request.params.id, upload));
      },
    );
  });

  // The raw scans are for the roles that work KYC; a viewer sees the review, not the ID (issue 12 §3).
  route(app, customerEndpoints.documentFile, write, async (request, reply) => {
    const file = await documentFile(ctx, request.params.id, request.params.documentId);
    // An uploaded PDF or image must never run script in our origin, nor be sniffed as HTML.
    return reply
      .header('content-type', file.mimeType)
      .header('content-disposition', contentDisposition(file.fileName))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', 'sandbox')
      .header('cache-control', 'private, no-store')
      .send(file.data);
  });

  route(app, customerEndpoints.reviewDocument, write, (request) =>
    withTransaction(ctx, (tx) =>
      reviewDocument(tx, actorOf(request), request.params.id, request.params.documentId, request.body),
    ),
  );
}
