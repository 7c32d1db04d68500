import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DemoImage } from '../../../contracts/demo';
import { demoImages } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { AppContext, TxContext } from '../../context';
import { badRequest, notFound } from '../../errors';
import { newId } from '../../ids';
import { fileStorage } from '../../storage';
import { cleanFileName } from '../customers/kyc';
import { checkImageContent } from './image-content';

const EXTENSION = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as const;

function present(row: typeof demoImages.$inferSelect): DemoImage {
  return {
    id: row.id,
    fileName: row.fileName,
    mimeType: row.mimeType as DemoImage['mimeType'],
    size: row.size,
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * POST /api/demo/images: stores a picture for the demo (checked by content). Images are never
 * changed or deleted, so a version that names one keeps showing it, and a revert finds it again.
 */
export async function uploadImage(
  ctx: TxContext,
  actor: Actor,
  upload: { fileName: string | undefined; data: Buffer },
): Promise<DemoImage> {
  if (!upload.data.length)
    throw badRequest('The file is empty', [{ field: 'file', message: 'The file is empty' }]);
  const mimeType = checkImageContent(upload.data);
  const id = newId();
  const storageKey = `demo/${id}`;
  const storage = fileStorage(ctx);
  // Written first, removed again if the transaction does not commit.
  await storage.put(storageKey, upload.data, mimeType);
  ctx.onRollback(() => storage.delete(storageKey));
  const name = cleanFileName(upload.fileName, 'image/png');
  const fileName = upload.fileName?.trim() ? name : `image.${EXTENSION[mimeType]}`;
  const sha256 = createHash('sha256').update(upload.data).digest('hex');
  const [row] = await ctx.tx
    .insert(demoImages)
    .values({
      id,
      storageKey,
      fileName,
      mimeType,
      size: upload.data.length,
      sha256,
      createdBy: actor.id,
      createdAt: ctx.clock.now(),
    })
    .returning();
  if (!row) throw new Error('The demo image was not written');
  await writeAudit(ctx.tx, actor, {
    action: 'demo.image_upload',
    entityType: 'demo_image',
    entityId: id,
    after: { fileName, mimeType, size: upload.data.length, sha256 },
  });
  return present(row);
}

/** GET /api/demo/images/:id: the bytes and the type found at upload. */
export async function imageFile(ctx: AppContext, id: string): Promise<{ mimeType: string; data: Buffer }> {
  const [row] = await ctx.db.select().from(demoImages).where(eq(demoImages.id, id));
  if (!row) throw notFound('Image not found');
  const data = await fileStorage(ctx).get(row.storageKey);
  if (!data) throw notFound('The file of this image is missing from storage');
  return { mimeType: row.mimeType, data };
}
