import { z } from 'zod';
import { endpoint, idParams } from './endpoint';

/**
 * Staff tasks (issue 15 §5): a small, general piece of work for a person. The assistant's hand-off
 * creates one, assigned to the customer's agent; the dashboard's "My tasks" card and
 * /ai-customer-service list them. The CRM issue extends them later, so they stay general.
 */
/** As the `staff_tasks` table has them (src/db/schema/communications.ts). */
export const TASK_STATUSES = ['open', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const taskSchema = z.object({
  id: z.string(),
  title: z.string(),
  detail: z.string().nullable(),
  status: z.enum(TASK_STATUSES),
  assignedTo: z.string().nullable(),
  assignedToName: z.string().nullable(),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  contractId: z.string().nullable(),
  contractNumber: z.string().nullable(),
  conversationId: z.string().nullable(),
  source: z.string(),
  createdAt: z.string(),
  doneAt: z.string().nullable(),
});
export type Task = z.infer<typeof taskSchema>;

export const taskListQuery = z.strictObject({
  /** `true`: only the tasks assigned to me. */
  mine: z.enum(['true', 'false'], { error: 'mine must be true or false' }).optional(),
  status: z.enum(TASK_STATUSES, { error: `status must be one of: ${TASK_STATUSES.join(', ')}` }).optional(),
  conversationId: z.uuid('conversationId must be a conversation id').optional(),
});

export const taskEndpoints = {
  /** Newest first, at most 200. */
  list: endpoint({
    method: 'GET',
    path: '/api/tasks',
    query: taskListQuery,
    response: z.object({ items: z.array(taskSchema), open: z.number().int() }),
  }),
  done: endpoint({
    method: 'POST',
    path: '/api/tasks/:id/done',
    params: idParams('task'),
    response: taskSchema,
  }),
};
