import { createHash } from 'node:crypto';
import { desc, eq, inArray, max, sql } from 'drizzle-orm';
import {
  type DemoContent,
  type DemoContentAnswer,
  type DemoDraft,
  type DemoDraftBody,
  type DemoVersionSummary,
  demoContentSchema,
} from '../../../contracts/demo';
import { demoImages, demoVersions } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { AppContext, AppServices, Executor, TxContext } from '../../context';
import { type AppError, badRequest, conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { cheapestModelPerCategory } from '../devices/models';
import { userNames } from '../users/service';
import { defaultDemoContent } from './default-content';

type VersionRow = typeof demoVersions.$inferSelect;

/** JSON with its keys sorted: jsonb keeps its own key order, so the revision must not depend on it. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The draft's optimistic check: changes whenever its content or its save time changes. */
export function revisionOf(row: VersionRow): string {
  return createHash('sha256')
    .update(`${row.id}|${row.updatedAt.toISOString()}|${canonical(row.content)}`)
    .digest('hex')
    .slice(0, 24);
}

const contentOf = (row: VersionRow): DemoContent => demoContentSchema.parse(row.content);

async function rowWithStatus(
  executor: Executor,
  status: VersionRow['status'],
): Promise<VersionRow | undefined> {
  const [row] = await executor.select().from(demoVersions).where(eq(demoVersions.status, status));
  return row;
}

/** Demo writes take turns: one draft and one published at a time, version numbers in order. */
async function lockVersions(ctx: TxContext): Promise<void> {
  await ctx.tx.execute(sql`LOCK TABLE demo_versions IN SHARE ROW EXCLUSIVE MODE`);
}

async function nameOf(executor: Executor, id: string | null): Promise<string | null> {
  return id ? ((await userNames(executor, [id])).get(id) ?? null) : null;
}

/** GET /api/demo/content: what /demo shows to everyone. */
export async function publicContent(ctx: AppContext): Promise<DemoContentAnswer> {
  const published = await rowWithStatus(ctx.db, 'published');
  if (published) {
    return {
      source: 'published',
      version: published.version,
      publishedAt: published.publishedAt?.toISOString() ?? null,
      content: contentOf(published),
    };
  }
  return { source: 'default', version: null, publishedAt: null, content: await builtInContent(ctx, ctx.db) };
}

/** The content a preview (an administrator's) or a simulated payment uses. */
export async function contentFor(ctx: AppContext, preview: boolean): Promise<DemoContent> {
  if (preview) return (await readDraft(ctx, ctx.db)).content;
  return (await publicContent(ctx)).content;
}

/** The built-in content, with the lender's own catalogue where it has the device. */
async function builtInContent(ctx: AppServices, executor: Executor): Promise<DemoContent> {
  const org = await organisation(ctx, executor);
  return defaultDemoContent(org.currency, await cheapestModelPerCategory(executor));
}

async function presentDraft(
  ctx: AppServices,
  executor: Executor,
  draft: VersionRow | undefined,
): Promise<DemoDraft> {
  const published = await rowWithStatus(executor, 'published');
  if (!draft) {
    const base = published ? contentOf(published) : await builtInContent(ctx, executor);
    return {
      exists: false,
      version: null,
      revision: null,
      publishedVersion: published?.version ?? null,
      note: null,
      updatedAt: null,
      createdBy: null,
      content: base,
    };
  }
  return {
    exists: true,
    version: draft.version,
    revision: revisionOf(draft),
    publishedVersion: published?.version ?? null,
    note: draft.note,
    updatedAt: draft.updatedAt.toISOString(),
    createdBy: await nameOf(executor, draft.createdBy),
    content: contentOf(draft),
  };
}

/** GET /api/demo/draft: the draft, or (none yet) the published content the first save starts from. */
export async function readDraft(ctx: AppContext, executor: Executor): Promise<DemoDraft> {
  return presentDraft(ctx, executor, await rowWithStatus(executor, 'draft'));
}

/** A stale save or publish: the form was loaded before someone else's change. */
function stale(): AppError {
  return conflict(
    'The demo draft changed since you opened it (someone else saved, published or reverted). Reload to see the latest draft; your changes are not saved.',
    'VERSION_CONFLICT',
  );
}

function checkRevision(draft: VersionRow | undefined, expected: string | null): void {
  const current = draft ? revisionOf(draft) : null;
  if (current !== expected) throw stale();
}

/** Every image the content names must be one uploaded here. */
async function checkImages(executor: Executor, content: DemoContent): Promise<void> {
  const named = [
    ...content.devices.map((device, index) => ({
      id: device.imageId,
      field: `content.devices.${index}.imageId`,
    })),
    { id: content.heroImageId, field: 'content.heroImageId' },
  ].filter((entry): entry is { id: string; field: string } => !!entry.id);
  if (!named.length) return;
  const found = await executor
    .select({ id: demoImages.id })
    .from(demoImages)
    .where(
      inArray(
        demoImages.id,
        named.map((entry) => entry.id),
      ),
    );
  const known = new Set(found.map((row) => row.id));
  const missing = named.filter((entry) => !known.has(entry.id));
  if (missing.length) {
    throw badRequest(
      'The content names an image that was not uploaded',
      missing.map((entry) => ({ field: entry.field, message: 'Upload the image again: it is not known' })),
    );
  }
}

async function nextVersion(ctx: TxContext): Promise<number> {
  const [row] = await ctx.tx.select({ top: max(demoVersions.version) }).from(demoVersions);
  return (row?.top ?? 0) + 1;
}

/** Writes `content` as the draft: a new draft row, or the existing one changed. */
async function writeDraft(
  ctx: TxContext,
  actor: Actor,
  draft: VersionRow | undefined,
  content: DemoContent,
  note: string | null,
): Promise<VersionRow> {
  const now = ctx.clock.now();
  if (draft) {
    const [row] = await ctx.tx
      .update(demoVersions)
      .set({ content, note, updatedAt: now })
      .where(eq(demoVersions.id, draft.id))
      .returning();
    if (!row) throw new Error('The demo draft vanished under its lock');
    return row;
  }
  const [row] = await ctx.tx
    .insert(demoVersions)
    .values({
      id: newId(),
      version: await nextVersion(ctx),
      status: 'draft',
      content,
      note,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('The demo draft was not written');
  return row;
}

/** PUT /api/demo/draft: saves the editor's content (the first save creates the draft). */
export async function saveDraft(ctx: TxContext, actor: Actor, body: DemoDraftBody): Promise<DemoDraft> {
  await lockVersions(ctx);
  const draft = await rowWithStatus(ctx.tx, 'draft');
  checkRevision(draft, body.expectedRevision);
  const content = demoContentSchema.parse(body.content);
  await checkImages(ctx.tx, content);
  const row = await writeDraft(ctx, actor, draft, content, body.note ?? null);
  await writeAudit(ctx.tx, actor, {
    action: 'demo.draft_save',
    entityType: 'demo_version',
    entityId: row.id,
    before: draft ? { version: draft.version, revision: revisionOf(draft) } : null,
    after: { version: row.version, revision: revisionOf(row), note: row.note, content },
  });
  return presentDraft(ctx, ctx.tx, row);
}

/** POST /api/demo/publish: the draft goes live; the version live until now is archived. */
export async function publishDraft(
  ctx: TxContext,
  actor: Actor,
  body: { expectedRevision: string; note?: string | null | undefined },
): Promise<DemoVersionSummary> {
  await lockVersions(ctx);
  const draft = await rowWithStatus(ctx.tx, 'draft');
  if (!draft) throw conflict('There is no draft to publish: save a change first', 'VERSION_CONFLICT');
  checkRevision(draft, body.expectedRevision);
  const previous = await rowWithStatus(ctx.tx, 'published');
  const now = ctx.clock.now();
  // The previous one leaves first: at most one published row at any moment (a unique index).
  if (previous) {
    await ctx.tx
      .update(demoVersions)
      .set({ status: 'archived', updatedAt: now })
      .where(eq(demoVersions.id, previous.id));
  }
  const [row] = await ctx.tx
    .update(demoVersions)
    .set({
      status: 'published',
      publishedAt: now,
      publishedBy: actor.id,
      updatedAt: now,
      ...(body.note !== undefined ? { note: body.note } : {}),
    })
    .where(eq(demoVersions.id, draft.id))
    .returning();
  if (!row) throw new Error('The demo draft vanished under its lock');
  await writeAudit(ctx.tx, actor, {
    action: 'demo.publish',
    entityType: 'demo_version',
    entityId: row.id,
    before: { published: previous?.version ?? null },
    after: { published: row.version, archived: previous?.version ?? null, note: row.note },
  });
  const [summary] = await summaries(ctx.tx, [row]);
  if (!summary) throw new Error('The published version was not presented');
  return summary;
}

/**
 * POST /api/demo/versions/:version/revert: an earlier version's content becomes the draft (the
 * draft's own edits are replaced, after the same revision check as a save). Nothing goes live
 * until it is published, so a revert can be reviewed in the preview first.
 */
export async function revertTo(
  ctx: TxContext,
  actor: Actor,
  versionId: string,
  expectedRevision: string | null,
): Promise<DemoDraft> {
  await lockVersions(ctx);
  const [source] = await ctx.tx.select().from(demoVersions).where(eq(demoVersions.id, versionId));
  if (!source) throw notFound('There is no such version of the demo');
  const { version } = source;
  const draft = await rowWithStatus(ctx.tx, 'draft');
  if (draft?.id === source.id) throw conflict('This version is the draft already', 'CONFLICT');
  checkRevision(draft, expectedRevision);
  const content = contentOf(source);
  // An image is never deleted, so the earlier version's images are still there.
  const row = await writeDraft(ctx, actor, draft, content, `Reverted to version ${version}`);
  await writeAudit(ctx.tx, actor, {
    action: 'demo.revert',
    entityType: 'demo_version',
    entityId: row.id,
    before: draft ? { version: draft.version, revision: revisionOf(draft), content: draft.content } : null,
    after: { version: row.version, revertedTo: version, revision: revisionOf(row) },
  });
  return presentDraft(ctx, ctx.tx, row);
}

async function summaries(executor: Executor, rows: VersionRow[]): Promise<DemoVersionSummary[]> {
  const names = await userNames(
    executor,
    rows.flatMap((row) => [row.createdBy, row.publishedBy]),
  );
  return rows.map((row) => {
    const content = row.content as Partial<DemoContent>;
    return {
      id: row.id,
      version: row.version,
      status: row.status,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdBy ? (names.get(row.createdBy) ?? null) : null,
      updatedAt: row.updatedAt.toISOString(),
      publishedAt: row.publishedAt?.toISOString() ?? null,
      publishedBy: row.publishedBy ? (names.get(row.publishedBy) ?? null) : null,
      devices: content.devices?.length ?? 0,
      plans: content.plans?.length ?? 0,
    };
  });
}

/** GET /api/demo/versions: newest first (the draft, the published one, then the archive). */
export async function listVersions(ctx: AppContext): Promise<{ items: DemoVersionSummary[] }> {
  const rows = await ctx.db.select().from(demoVersions).orderBy(desc(demoVersions.version)).limit(200);
  return { items: await summaries(ctx.db, rows) };
}
