import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * The organisation's business date (API.md "Business date"): the day every date rule uses (due,
 * days past due, paid-through, late fees, close of business). It is today in the organisation's
 * time zone, plus the days an administrator moved it forward on a test, training or demo instance.
 */
export const businessDateSchema = z.object({
  businessDate: z.iso.date(),
  /** The last business date the close of business completed; null until one has. */
  lastClosedDate: z.iso.date().nullable(),
  /** Whether this server lets administrators move the date (`BUSINESS_DATE_CONTROL=true`). */
  control: z.boolean(),
});
export type BusinessDateState = z.infer<typeof businessDateSchema>;

export const moveBusinessDateBody = z.strictObject({
  businessDate: z.iso.date('The business date must be a date (YYYY-MM-DD)'),
});
export type MoveBusinessDateBody = z.input<typeof moveBusinessDateBody>;

/** The furthest the business date may run ahead of the calendar, in days (ten years). */
export const MAX_BUSINESS_DATE_OFFSET = 3_660;

/** /api/business-date: read by every signed-in staff member; moved forward by administrators. */
export const businessDateEndpoints = {
  get: endpoint({ method: 'GET', path: '/api/business-date', response: businessDateSchema }),
  move: endpoint({
    method: 'PUT',
    path: '/api/business-date',
    body: moveBusinessDateBody,
    response: businessDateSchema,
  }),
};
