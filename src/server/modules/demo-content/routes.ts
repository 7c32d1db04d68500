import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  DEMO_EDITOR_PERMISSION,
  DEMO_IMAGE_MAX_BYTES,
  demoEndpoints as endpoints,
} from '../../../contracts/demo';
import { can } from '../../../contracts/roles';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { fieldError, forbidden } from '../../errors';
import { readMultipart } from '../../multipart';
import { organisation } from '../../organisation';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { imageFile, uploadImage } from './images';
import { simulatePayment } from './payment';
import {
  contentFor,
  listVersions,
  publicContent,
  publishDraft,
  readDraft,
  revertTo,
  saveDraft,
} from './versions';

/** The simulated payment writes nothing, but it is public: a bound keeps it from being a free CPU. */
const PAYMENT_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

const UPLOAD_HELP = 'Send multipart/form-data with one "file": a PNG, JPEG or WebP image';
const MAX_MB = DEMO_IMAGE_MAX_BYTES / (1024 * 1024);

/** The upload's one file; the multipart limit stops an oversized file while it streams. */
async function readImageUpload(
  request: FastifyRequest,
): Promise<{ fileName: string | undefined; data: Buffer }> {
  const { file } = await readMultipart(request, {
    help: UPLOAD_HELP,
    tooLarge: { message: `The image is larger than ${MAX_MB} MB`, advice: 'upload a smaller one' },
  });
  if (!file) throw fieldError('file', 'Choose an image to upload');
  return { fileName: file.name, data: file.data };
}

/** The public financing demo (issue 16 §4) and its editor (§5). */
export async function demoContentRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['demo'];
  const editor = { access: DEMO_EDITOR_PERMISSION, tags } as const;

  route(app, endpoints.content, { access: 'public', tags }, () => publicContent(ctx));

  route(app, endpoints.image, { access: 'public', tags }, async (request, reply) => {
    const file = await imageFile(ctx, request.params.id);
    // An image id is never reused nor its bytes changed, so browsers and caches may keep it.
    return reply
      .header('content-type', file.mimeType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', 'sandbox')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(file.data);
  });

  route(
    app,
    endpoints.payment,
    { access: 'public', tags, rateLimit: PAYMENT_RATE_LIMIT },
    async (request) => {
      const preview = request.body.preview === true;
      if (preview && !can(request.session?.user, DEMO_EDITOR_PERMISSION)) {
        throw forbidden('Only demo editors can try the draft', 'ROLE_FORBIDDEN');
      }
      const [content, org] = await Promise.all([contentFor(ctx, preview), organisation(ctx, ctx.db)]);
      return simulatePayment(content, org.currency, request.body);
    },
  );

  route(app, endpoints.draft, editor, () => readDraft(ctx, ctx.db));

  route(app, endpoints.saveDraft, editor, (request) =>
    withTransaction(ctx, (tx) => saveDraft(tx, actorOf(request), request.body)),
  );

  route(app, endpoints.publish, editor, (request) =>
    withTransaction(ctx, (tx) => publishDraft(tx, actorOf(request), request.body)),
  );

  route(app, endpoints.versions, editor, () => listVersions(ctx));

  route(app, endpoints.revert, editor, (request) =>
    withTransaction(ctx, (tx) =>
      revertTo(tx, actorOf(request), request.params.id, request.body.expectedRevision),
    ),
  );

  // Multipart only here: the plugin's parser and limits stay in this scope.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fileSize: DEMO_IMAGE_MAX_BYTES,
        files: 1,
        fields: 2,
        fieldSize: 200,
        parts: 3,
        headerPairs: 50,
      },
    });
    route(
      scope,
      endpoints.uploadImage,
      { ...editor, description: `${UPLOAD_HELP}, recognised by content, at most ${MAX_MB} MB.` },
      async (request) => {
        const upload = await readImageUpload(request);
        return withTransaction(ctx, (tx) => uploadImage(tx, actorOf(request), upload));
      },
    );
  });
}
