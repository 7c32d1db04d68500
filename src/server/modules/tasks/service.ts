import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Task, taskListQuery } from '../../../contracts/tasks';
import { contracts, customers, staffTasks, users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { Executor, TxContext } from '../../context';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { notify, resolveTask } from '../notifications/service';

/**
 * Staff tasks (issue 15 §5): small and general, so the CRM issue can extend them. The assistant's
 * hand-off creates one, assigned to the customer's agent (or to no one: then everyone who may
 * answer conversations is told), and the assignee is notified in the same transaction.
 */
export interface NewTask {
  title: string;
  detail?: string | null;
  customerId?: string | null;
  contractId?: string | null;
  conversationId?: string | null;
  assignedTo?: string | null;
  /** What created it (e.g. `assistant.handoff`). */
  source: string;
  /** Where the notification leads. */
  link: string;
}

export async function createTask(ctx: TxContext, actor: Actor, task: NewTask): Promise<string> {
  const id = newId();
  await ctx.tx.insert(staffTasks).values({
    id,
    title: task.title,
    detail: task.detail ?? null,
    customerId: task.customerId ?? null,
    contractId: task.contractId ?? null,
    conversationId: task.conversationId ?? null,
    assignedTo: task.assignedTo ?? null,
    source: task.source,
    createdBy: actor.id,
    createdAt: ctx.clock.now(),
  });
  await notify(ctx, task.assignedTo ? { userId: task.assignedTo } : { permission: 'messages.send' }, {
    title: task.title,
    message: task.detail ?? task.title,
    type: 'warning',
    link: task.link,
    task: `staff_task:${id}`,
  });
  return id;
}

/** The open task a conversation already has, if any (one hand-off at a time per thread). */
export async function openTaskOfConversation(
  executor: Executor,
  conversationId: string,
): Promise<string | null> {
  const [open] = await executor
    .select({ id: staffTasks.id })
    .from(staffTasks)
    .where(and(eq(staffTasks.conversationId, conversationId), eq(staffTasks.status, 'open')))
    .limit(1);
  return open?.id ?? null;
}

/** An unknown number's thread linked to a customer: its tasks become that customer's. */
export async function linkConversationTasks(
  ctx: TxContext,
  conversationId: string,
  customerId: string,
): Promise<void> {
  await ctx.tx
    .update(staffTasks)
    .set({ customerId })
    .where(and(eq(staffTasks.conversationId, conversationId), isNull(staffTasks.customerId)));
}

const select = {
  id: staffTasks.id,
  title: staffTasks.title,
  detail: staffTasks.detail,
  status: staffTasks.status,
  assignedTo: staffTasks.assignedTo,
  assignedToName: sql<
    string | null
  >`CASE WHEN ${users.id} IS NULL THEN NULL ELSE ${users.firstName} || ' ' || ${users.lastName} END`,
  customerId: staffTasks.customerId,
  customerName: sql<
    string | null
  >`CASE WHEN ${customers.id} IS NULL THEN NULL ELSE ${customers.firstName} || ' ' || ${customers.lastName} END`,
  contractId: staffTasks.contractId,
  contractNumber: contracts.number,
  conversationId: staffTasks.conversationId,
  source: staffTasks.source,
  createdAt: staffTasks.createdAt,
  doneAt: staffTasks.doneAt,
};

async function readTasks(executor: Executor, where: SQL | undefined, limit: number): Promise<Task[]> {
  const rows = await executor
    .select(select)
    .from(staffTasks)
    .leftJoin(users, eq(users.id, staffTasks.assignedTo))
    .leftJoin(customers, eq(customers.id, staffTasks.customerId))
    .leftJoin(contracts, eq(contracts.id, staffTasks.contractId))
    .where(where)
    .orderBy(desc(staffTasks.createdAt), desc(staffTasks.id))
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    doneAt: row.doneAt?.toISOString() ?? null,
  }));
}

/** Newest first (at most 200), with the count of open ones under the same filter but status. */
export async function listTasks(
  executor: Executor,
  userId: string,
  query: typeof taskListQuery._output,
): Promise<{ items: Task[]; open: number }> {
  const scope = and(
    query.mine === 'true' ? eq(staffTasks.assignedTo, userId) : undefined,
    query.conversationId ? eq(staffTasks.conversationId, query.conversationId) : undefined,
  );
  const items = await readTasks(
    executor,
    and(scope, query.status ? eq(staffTasks.status, query.status) : undefined),
    200,
  );
  const [open] = await executor
    .select({ n: count() })
    .from(staffTasks)
    .where(and(scope, eq(staffTasks.status, 'open')));
  return { items, open: open?.n ?? 0 };
}

export async function tasksOfConversation(executor: Executor, conversationId: string): Promise<Task[]> {
  return readTasks(executor, eq(staffTasks.conversationId, conversationId), 50);
}

/** Marks a task done (audited); its notification is settled for everyone. */
export async function completeTask(ctx: TxContext, actor: Actor, id: string): Promise<Task> {
  const [row] = await ctx.tx.select().from(staffTasks).where(eq(staffTasks.id, id)).for('update');
  if (!row) throw notFound('Task not found');
  if (row.status === 'done') throw conflict('This task is already done');
  const now = ctx.clock.now();
  await ctx.tx
    .update(staffTasks)
    .set({ status: 'done', doneAt: now, doneBy: actor.id })
    .where(eq(staffTasks.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'task.done',
    entityType: 'staff_task',
    entityId: id,
    before: { status: 'open' },
    after: { status: 'done', title: row.title },
  });
  await resolveTask(ctx, `staff_task:${id}`);
  const [task] = await readTasks(ctx.tx, eq(staffTasks.id, id), 1);
  if (!task) throw notFound('Task not found');
  return task;
}
