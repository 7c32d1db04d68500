import { and, asc, desc, eq } from 'drizzle-orm';
import { keyFromName, type TemplateVersion } from '../../../contracts/communications';
import { ERROR_CODES } from '../../../contracts/errors';
import {
  type MessageChannel,
  type MessageTemplate,
  TEMPLATE_KEYS,
  templateLabel,
  variablesOf,
} from '../../../contracts/messages';
import { messageTemplates, messageTemplateVersions } from '../../../db/schema';
import { templateVariables } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { AppError, conflict, notFound } from '../../errors';
import { DEFAULT_LANGUAGE } from './outbox';

/**
 * Message templates (decision 027, issue 15 "Templates"): one body per key, channel and language.
 * Built-in keys are seeded and may be edited, never deleted; staff create others (their
 * variables are CUSTOM_TEMPLATE_VARIABLES). Every creation and edit writes a row of
 * `message_template_versions`, so an earlier text can be read and restored (as a new version:
 * the numbers only go up, and each outbox row keeps the version it rendered).
 */

type TemplateRow = typeof messageTemplates.$inferSelect;

export interface TemplateRef {
  key: string;
  channel: MessageChannel;
  language: string;
}

const present = (row: TemplateRow): MessageTemplate => ({
  key: row.key,
  channel: row.channel,
  language: row.language,
  name: row.name ?? templateLabel(row.key),
  subject: row.subject,
  builtin: row.builtin,
  body: row.body,
  version: row.version,
  variables: [...variablesOf(row.key)],
  updatedAt: row.updatedAt.toISOString(),
});

const refId = (ref: TemplateRef) => `${ref.key}:${ref.channel}:${ref.language}`;
const whereRef = (ref: TemplateRef) =>
  and(
    eq(messageTemplates.key, ref.key),
    eq(messageTemplates.channel, ref.channel),
    eq(messageTemplates.language, ref.language),
  );

/** Every template: built-in keys in the order of TEMPLATE_KEYS, then the others by key. */
export async function listTemplates(executor: Executor): Promise<MessageTemplate[]> {
  const rows = await executor
    .select()
    .from(messageTemplates)
    .orderBy(asc(messageTemplates.key), asc(messageTemplates.channel), asc(messageTemplates.language));
  const order = (key: string) => {
    const index = (TEMPLATE_KEYS as readonly string[]).indexOf(key);
    return index < 0 ? TEMPLATE_KEYS.length : index;
  };
  return rows.sort((a, b) => order(a.key) - order(b.key)).map(present);
}

/**
 * A text naming a variable its key is not given is refused (422 on the field): every message of
 * it would fail to render.
 */
function checkVariables(key: string, field: 'body' | 'subject', text: string | null | undefined): void {
  if (!text) return;
  const allowed = variablesOf(key);
  const unknown = templateVariables(text).filter((name) => !allowed.includes(name));
  if (!unknown.length) return;
  const message = `Unknown variable${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `{{${n}}}`).join(', ')}: this template may use ${allowed.map((n) => `{{${n}}}`).join(', ')}`;
  throw new AppError(422, ERROR_CODES.VALIDATION, message, [{ field, message }]);
}

const invalid = (field: string, message: string) =>
  new AppError(422, ERROR_CODES.VALIDATION, message, [{ field, message }]);

async function writeVersion(ctx: TxContext, actor: Actor, row: TemplateRow): Promise<void> {
  await ctx.tx
    .insert(messageTemplateVersions)
    .values({
      key: row.key,
      channel: row.channel,
      language: row.language,
      version: row.version,
      subject: row.subject,
      body: row.body,
      createdBy: actor.id,
      createdAt: row.updatedAt,
    })
    .onConflictDoNothing();
}

/**
 * A new template, or a language (or channel) added to a key. A new key's first text is English,
 * the language every customer falls back to; an e-mail template has a subject.
 */
export async function createTemplate(
  ctx: TxContext,
  actor: Actor,
  input: {
    name: string;
    key?: string | undefined;
    channel: MessageChannel;
    language: string;
    subject?: string | undefined;
    body: string;
  },
): Promise<MessageTemplate> {
  const key = input.key ?? keyFromName(input.name);
  const builtinKey = (TEMPLATE_KEYS as readonly string[]).includes(key);
  checkVariables(key, 'body', input.body);
  checkVariables(key, 'subject', input.subject);
  if (input.channel === 'email' && !input.subject)
    throw invalid('subject', 'An e-mail template has a subject');
  const siblings = await ctx.tx.select().from(messageTemplates).where(eq(messageTemplates.key, key));
  if (siblings.some((row) => row.channel === input.channel && row.language === input.language))
    throw conflict(`The ${input.channel} template "${key}" already has ${input.language}: edit it instead`);
  if (
    !builtinKey &&
    input.language !== DEFAULT_LANGUAGE &&
    !siblings.some((row) => row.language === DEFAULT_LANGUAGE && row.channel === input.channel)
  )
    throw invalid(
      'language',
      `Write the template in English (en) first: customers whose language it lacks are sent the English text`,
    );
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(messageTemplates)
    .values({
      key,
      channel: input.channel,
      language: input.language,
      name: siblings[0]?.name ?? input.name,
      subject: input.channel === 'email' ? (input.subject ?? null) : null,
      body: input.body,
      builtin: false,
      version: 1,
      updatedBy: actor.id,
      updatedAt: now,
    })
    .returning();
  if (!row) throw notFound('Template not found');
  await writeVersion(ctx, actor, row);
  await writeAudit(ctx.tx, actor, {
    action: 'message_template.create',
    entityType: 'message_template',
    entityId: refId(row),
    after: { name: row.name, subject: row.subject, body: row.body, version: row.version },
  });
  return present(row);
}

async function lockTemplate(ctx: TxContext, ref: TemplateRef): Promise<TemplateRow> {
  const [row] = await ctx.tx.select().from(messageTemplates).where(whereRef(ref)).for('update');
  if (!row) throw notFound(`No ${ref.channel} template "${ref.key}" in language ${ref.language}`);
  return row;
}

async function writeText(
  ctx: TxContext,
  actor: Actor,
  before: TemplateRow,
  text: { body: string; subject: string | null },
  action: 'message_template.update' | 'message_template.restore',
  restoredFrom?: number,
): Promise<MessageTemplate> {
  if (before.body === text.body && before.subject === text.subject) return present(before);
  const [after] = await ctx.tx
    .update(messageTemplates)
    .set({
      body: text.body,
      subject: text.subject,
      version: before.version + 1,
      updatedBy: actor.id,
      updatedAt: ctx.clock.now(),
    })
    .where(whereRef(before))
    .returning();
  if (!after) throw notFound('Template not found');
  await writeVersion(ctx, actor, after);
  await writeAudit(ctx.tx, actor, {
    action,
    entityType: 'message_template',
    entityId: refId(after),
    before: { subject: before.subject, body: before.body, version: before.version },
    after: {
      subject: after.subject,
      body: after.body,
      version: after.version,
      ...(restoredFrom ? { restoredFrom } : {}),
    },
  });
  return present(after);
}

/** Edits a template's text (decision 027), raising its version. */
export async function updateTemplate(
  ctx: TxContext,
  actor: Actor,
  input: TemplateRef & { body: string; subject?: string | undefined },
): Promise<MessageTemplate> {
  checkVariables(input.key, 'body', input.body);
  checkVariables(input.key, 'subject', input.subject);
  const before = await lockTemplate(ctx, input);
  const subject = before.channel === 'email' ? (input.subject ?? before.subject) : null;
  if (before.channel === 'email' && !subject) throw invalid('subject', 'An e-mail template has a subject');
  return writeText(ctx, actor, before, { body: input.body, subject }, 'message_template.update');
}

export async function templateVersions(executor: Executor, ref: TemplateRef): Promise<TemplateVersion[]> {
  const [current] = await executor.select().from(messageTemplates).where(whereRef(ref));
  if (!current) throw notFound(`No ${ref.channel} template "${ref.key}" in language ${ref.language}`);
  const rows = await executor
    .select()
    .from(messageTemplateVersions)
    .where(
      and(
        eq(messageTemplateVersions.key, ref.key),
        eq(messageTemplateVersions.channel, ref.channel),
        eq(messageTemplateVersions.language, ref.language),
      ),
    )
    .orderBy(desc(messageTemplateVersions.version));
  return rows.map((row) => ({
    version: row.version,
    subject: row.subject,
    body: row.body,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    current: row.version === current.version,
  }));
}

/** An earlier version's text made current again, as a new version. */
export async function restoreTemplate(
  ctx: TxContext,
  actor: Actor,
  input: TemplateRef & { version: number },
): Promise<MessageTemplate> {
  const before = await lockTemplate(ctx, input);
  const [old] = await ctx.tx
    .select()
    .from(messageTemplateVersions)
    .where(
      and(
        eq(messageTemplateVersions.key, input.key),
        eq(messageTemplateVersions.channel, input.channel),
        eq(messageTemplateVersions.language, input.language),
        eq(messageTemplateVersions.version, input.version),
      ),
    );
  if (!old) throw notFound(`Version ${input.version} of this template does not exist`);
  return writeText(
    ctx,
    actor,
    before,
    { body: old.body, subject: old.subject },
    'message_template.restore',
    input.version,
  );
}

/**
 * Deletes a template staff created (one language of one channel; its versions with it). A
 * built-in is refused, and so is the English text while the key has other languages on the
 * channel (they fall back to it).
 */
export async function deleteTemplate(ctx: TxContext, actor: Actor, ref: TemplateRef): Promise<void> {
  const before = await lockTemplate(ctx, ref);
  if (before.builtin) throw conflict('A built-in template can be edited but not deleted');
  if (ref.language === DEFAULT_LANGUAGE) {
    const others = await ctx.tx
      .select({ language: messageTemplates.language })
      .from(messageTemplates)
      .where(and(eq(messageTemplates.key, ref.key), eq(messageTemplates.channel, ref.channel)));
    if (others.some((row) => row.language !== DEFAULT_LANGUAGE))
      throw conflict('Delete the other languages first: they fall back to the English text');
  }
  await ctx.tx.delete(messageTemplates).where(whereRef(ref));
  await ctx.tx
    .delete(messageTemplateVersions)
    .where(
      and(
        eq(messageTemplateVersions.key, ref.key),
        eq(messageTemplateVersions.channel, ref.channel),
        eq(messageTemplateVersions.language, ref.language),
      ),
    );
  await writeAudit(ctx.tx, actor, {
    action: 'message_template.delete',
    entityType: 'message_template',
    entityId: refId(ref),
    before: { name: before.name, subject: before.subject, body: before.body, version: before.version },
  });
}
