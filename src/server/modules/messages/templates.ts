import { and, asc, eq } from 'drizzle-orm';
import { ERROR_CODES } from '../../../contracts/errors';
import {
  type MessageTemplate,
  TEMPLATE_KEYS,
  TEMPLATE_VARIABLES,
  type TemplateKey,
  variablesOf,
} from '../../../contracts/messages';
import { messageTemplates } from '../../../db/schema';
import { templateVariables } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { AppError, notFound } from '../../errors';

type TemplateRow = typeof messageTemplates.$inferSelect;

const present = (row: TemplateRow): MessageTemplate => ({
  key: row.key,
  channel: row.channel,
  language: row.language,
  body: row.body,
  version: row.version,
  variables: [...variablesOf(row.key)],
  updatedAt: row.updatedAt.toISOString(),
});

/** Every template, in the order of TEMPLATE_KEYS. */
export async function listTemplates(executor: Executor): Promise<MessageTemplate[]> {
  const rows = await executor
    .select()
    .from(messageTemplates)
    .orderBy(asc(messageTemplates.channel), asc(messageTemplates.language));
  const order = (key: string) => {
    const index = (TEMPLATE_KEYS as readonly string[]).indexOf(key);
    return index < 0 ? TEMPLATE_KEYS.length : index;
  };
  return rows.sort((a, b) => order(a.key) - order(b.key)).map(present);
}

/**
 * Edits a template's text, raising its version (decision 027). A body that names a variable its
 * key is not given is refused (422 on `body`): every message of it would fail to render.
 */
export async function updateTemplate(
  ctx: TxContext,
  actor: Actor,
  input: { key: TemplateKey; channel: TemplateRow['channel']; language: string; body: string },
): Promise<MessageTemplate> {
  const { key } = input;
  const allowed = TEMPLATE_VARIABLES[key];
  const unknown = templateVariables(input.body).filter((name) => !allowed.includes(name));
  if (unknown.length) {
    const message = `Unknown variable${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `{{${n}}}`).join(', ')}: this template may use ${allowed.map((n) => `{{${n}}}`).join(', ')}`;
    throw new AppError(422, ERROR_CODES.VALIDATION, message, [{ field: 'body', message }]);
  }
  const where = and(
    eq(messageTemplates.key, key),
    eq(messageTemplates.channel, input.channel),
    eq(messageTemplates.language, input.language),
  );
  const [before] = await ctx.tx.select().from(messageTemplates).where(where).for('update');
  if (!before) throw notFound(`No ${input.channel} template "${key}" in language ${input.language}`);
  if (before.body === input.body) return present(before);
  const [after] = await ctx.tx
    .update(messageTemplates)
    .set({ body: input.body, version: before.version + 1, updatedBy: actor.id, updatedAt: ctx.clock.now() })
    .where(where)
    .returning();
  if (!after) throw notFound('Template not found');
  await writeAudit(ctx.tx, actor, {
    action: 'message_template.update',
    entityType: 'message_template',
    entityId: `${key}:${input.channel}:${input.language}`,
    before: { body: before.body, version: before.version },
    after: { body: after.body, version: after.version },
  });
  return present(after);
}
