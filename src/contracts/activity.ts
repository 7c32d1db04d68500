import { z } from 'zod';
import { endpoint } from './endpoint';

/** Seed section 9: every event type the client tracker sends. */
export const ACTIVITY_TYPES = [
  'PAGE_VISIT',
  'PAGE_EXIT',
  'PAGE_UNLOAD',
  'PAGE_HIDDEN',
  'PAGE_VISIBLE',
  'WINDOW_FOCUS',
  'WINDOW_BLUR',
  'BUTTON_CLICK',
  'LINK_CLICK',
  'FORM_SUBMIT',
  'HEARTBEAT',
  'CUSTOM_EVENT',
  'ERROR',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Seed section 2: section names for activity tracking. */
export const SECTION_PREFIXES: Array<[string, string]> = [
  ['/contracts', 'Contracts'],
  ['/collections', 'Collections'],
  ['/crm', 'CRM'],
  ['/workflows', 'Workflows'],
  ['/risk', 'Risk'],
  ['/analytics', 'Analytics'],
  ['/customers', 'Customers'],
  ['/devices', 'Devices'],
  ['/service-plans', 'Service Plans'],
  ['/settings', 'Settings'],
  ['/admin', 'Admin'],
  ['/help', 'Help'],
  ['/tutorials', 'Tutorials'],
  ['/profile', 'Profile'],
];

export function sectionOf(path: string): string {
  if (path === '/') return 'Dashboard';
  for (const [prefix, name] of SECTION_PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return name;
  }
  return 'Other';
}

const text = (max: number) => z.string().max(max, `At most ${max} characters`);
const jsonRecord = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 8192, 'At most 8 KB of data');

export const activityEventBody = z.strictObject({
  type: z.enum(ACTIVITY_TYPES, { error: `type must be one of ${ACTIVITY_TYPES.join(', ')}` }),
  page: text(2048).optional(),
  section: text(100).optional(),
  referrer: text(2048).optional(),
  timestamp: z.iso.datetime({ offset: true, error: 'timestamp must be an ISO date-time' }).optional(),
  timeSpent: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional(),
  element: text(200).optional(),
  label: text(500).optional(),
  testId: text(200).optional(),
  href: text(2048).optional(),
  formName: text(200).optional(),
  event: text(200).optional(),
  data: jsonRecord.optional(),
  error: z
    .strictObject({
      message: text(2000).optional(),
      stack: text(8000).optional(),
      name: text(200).optional(),
    })
    .optional(),
  context: jsonRecord.optional(),
});
export type ActivityEvent = z.input<typeof activityEventBody>;

export const usageQuery = z.strictObject({
  from: z.iso.date('from must be a date (YYYY-MM-DD)'),
  to: z.iso.date('to must be a date (YYYY-MM-DD)'),
});

export const usageRowSchema = z.object({
  section: z.string(),
  visits: z.number().int(),
  seconds: z.number().int(),
  users: z.number().int(),
});
export const usageSchema = z.object({
  from: z.string(),
  to: z.string(),
  sections: z.array(usageRowSchema),
  people: z.array(
    z.object({
      userId: z.string(),
      name: z.string(),
      email: z.string(),
      visits: z.number().int(),
      seconds: z.number().int(),
    }),
  ),
});
export type Usage = z.infer<typeof usageSchema>;

/** The unload beacon cannot set headers: its CSRF token rides in the query string. */
export const trackQuery = z.strictObject({ csrf: z.string().max(200).optional() });

/** /api/activity: the client tracker's events, and usage by section and person. */
export const activityEndpoints = {
  /** Also the target of the page-unload beacon (sent with `endpointUrl`, not `api()`). */
  track: endpoint({
    method: 'POST',
    path: '/api/activity/track',
    query: trackQuery,
    body: activityEventBody,
    response: z.null(),
    status: 204,
  }),
  usage: endpoint({ method: 'GET', path: '/api/activity/usage', query: usageQuery, response: usageSchema }),
};
