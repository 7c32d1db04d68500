import { z } from 'zod';
import {
  COMMAND_KINDS,
  COMMAND_STATES,
  CONTROL_KINDS,
  DEVICE_STATUSES,
  LOCK_STATES,
  MAX_TOKEN_DAYS,
} from './devices';
import { endpoint, idParams, okSchema } from './endpoint';
import { listQuery, pageOf } from './lists';

/**
 * Device control (PRODUCT.md §2 "Device control"; issue 14 §4): delivery of the command log to
 * the providers, every attempt, manual and bulk commands, and the provider settings.
 */

/** Which provider lock-API units' commands go to: the built-in simulator (default) or a lock API. */
export const LOCK_PROVIDERS = ['simulator', 'lock_api'] as const;
export type LockProvider = (typeof LOCK_PROVIDERS)[number];
/** Who delivered an attempt: the lock provider of the time, or OpenPAYGO for token units. */
export const DELIVERY_PROVIDERS = ['simulator', 'lock_api', 'openpaygo'] as const;
export type DeliveryProvider = (typeof DELIVERY_PROVIDERS)[number];

/**
 * What became of one attempt: `pending` while it is in flight, `accepted` when the provider took it
 * and will acknowledge later (by callback), `acknowledged`, `failed` (an error, with its text), or
 * `timeout` (no answer or acknowledgement in time: a worker died or the callback never came).
 */
export const ATTEMPT_OUTCOMES = ['pending', 'accepted', 'acknowledged', 'failed', 'timeout'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_BASE_SECONDS = 30;
/** The back-off never waits longer than this between attempts. */
export const MAX_RETRY_DELAY_SECONDS = 3600;
/** Manual and bulk commands carry a reason of at least this many characters. */
export const MIN_REASON_LENGTH = 3;
/** Bulk lock or unlock takes at most this many units per request. */
export const BULK_MAX_UNITS = 500;

/** Exponential back-off: the wait after failed attempt `attempt` (1-based), doubling, capped. */
export function retryDelaySeconds(attempt: number, baseSeconds: number): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(MAX_RETRY_DELAY_SECONDS, baseSeconds * 2 ** Math.min(exponent, 20));
}

/** Where a command goes after a failed attempt: another try later, or failed for good. */
export function afterFailedAttempt(
  attempts: number,
  maxAttempts: number,
  baseSeconds: number,
  now: Date,
): { state: 'queued'; nextAttemptAt: Date } | { state: 'failed'; nextAttemptAt: null } {
  if (attempts >= maxAttempts) return { state: 'failed', nextAttemptAt: null };
  return {
    state: 'queued',
    nextAttemptAt: new Date(now.getTime() + retryDelaySeconds(attempts, baseSeconds) * 1000),
  };
}

/** What the unit's lock state becomes when a command of this kind is acknowledged. */
export function lockStateAfter(kind: (typeof COMMAND_KINDS)[number]): 'locked' | 'unlocked' | null {
  if (kind === 'lock') return 'locked';
  if (kind === 'unlock' || kind === 'release') return 'unlocked';
  return null;
}

/** Which commands a unit of each control kind takes (OpenPAYGO units need no lock: time runs out). */
export const COMMANDS_FOR_CONTROL: Record<(typeof CONTROL_KINDS)[number], readonly string[]> = {
  lock_api: ['lock', 'unlock', 'release'],
  openpaygo: ['token', 'release'],
  none: [],
};

const reason = z
  .string({ error: 'Give the reason' })
  .trim()
  .min(MIN_REASON_LENGTH, 'Give the reason')
  .max(500, 'The reason must be at most 500 characters');

export const commandAttemptSchema = z.object({
  id: z.string(),
  attempt: z.number().int(),
  provider: z.enum(DELIVERY_PROVIDERS),
  outcome: z.enum(ATTEMPT_OUTCOMES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  /** What the provider answered (its JSON, or a summary), for support. */
  response: z.unknown(),
});
export type CommandAttempt = z.infer<typeof commandAttemptSchema>;

export const deviceCommandSchema = z.object({
  id: z.string(),
  device: z.object({ id: z.string(), serialNumber: z.string(), controlKind: z.enum(CONTROL_KINDS) }),
  contractId: z.string().nullable(),
  kind: z.enum(COMMAND_KINDS),
  state: z.enum(COMMAND_STATES),
  reason: z.string(),
  sourceType: z.string().nullable(),
  /** Token commands: the days given. */
  days: z.number().int().nullable(),
  provider: z.enum(DELIVERY_PROVIDERS).nullable(),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  requestedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type DeviceCommand = z.infer<typeof deviceCommandSchema>;

export const deviceCommandWithAttemptsSchema = deviceCommandSchema.extend({
  attemptLog: z.array(commandAttemptSchema),
});
export type DeviceCommandWithAttempts = z.infer<typeof deviceCommandWithAttemptsSchema>;

export const commandListQuery = listQuery(['createdAt'], {
  kind: z.enum(COMMAND_KINDS, { error: `kind must be one of: ${COMMAND_KINDS.join(', ')}` }).optional(),
  state: z.enum(COMMAND_STATES, { error: `state must be one of: ${COMMAND_STATES.join(', ')}` }).optional(),
  deviceId: z.uuid('deviceId must be a device id').optional(),
  from: z.iso.date('from must be a date (YYYY-MM-DD)').optional(),
  to: z.iso.date('to must be a date (YYYY-MM-DD)').optional(),
});
export const commandPageSchema = pageOf(deviceCommandSchema);

/**
 * The controlled fleet per control kind, lock state and unit status: the units with customers
 * (`assigned`) are the fleet in the field; the others are in stock, reserved or back from a customer.
 */
export const fleetSummarySchema = z.object({
  cells: z.array(
    z.object({
      controlKind: z.enum(CONTROL_KINDS),
      lockState: z.enum(LOCK_STATES),
      status: z.enum(DEVICE_STATUSES),
      units: z.number().int(),
    }),
  ),
  commands: z.object({
    queued: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
  }),
});
export type FleetSummary = z.infer<typeof fleetSummarySchema>;

export const manualCommandBody = z
  .strictObject({
    kind: z.enum(COMMAND_KINDS, { error: `kind must be one of: ${COMMAND_KINDS.join(', ')}` }),
    reason,
    /** Token commands only: the days of time to give (1-995). */
    days: z
      .number({ error: 'days must be a whole number' })
      .int('days must be a whole number')
      .min(1, 'Give at least 1 day')
      .max(MAX_TOKEN_DAYS, `days must be at most ${MAX_TOKEN_DAYS}`)
      .optional(),
  })
  .superRefine((body, context) => {
    if (body.kind === 'token' && body.days === undefined)
      context.addIssue({ code: 'custom', path: ['days'], message: 'A token needs the number of days' });
    if (body.kind !== 'token' && body.days !== undefined)
      context.addIssue({ code: 'custom', path: ['days'], message: `A ${body.kind} takes no days` });
  });
export type ManualCommandBody = z.input<typeof manualCommandBody>;

export const bulkCommandBody = z.strictObject({
  kind: z.enum(['lock', 'unlock'], { error: 'Bulk actions are lock or unlock' }),
  deviceIds: z
    .array(z.uuid('Each unit must be a device id'), { error: 'Choose the units' })
    .min(1, 'Choose at least one unit')
    .max(BULK_MAX_UNITS, `At most ${BULK_MAX_UNITS} units at a time`),
  reason,
});
export type BulkCommandBody = z.input<typeof bulkCommandBody>;

export const bulkCommandResultSchema = z.object({
  queued: z.number().int(),
  /** Units left out, each with why (not a lock-API unit, already in that state, one already on its way). */
  skipped: z.array(
    z.object({ deviceId: z.string(), serialNumber: z.string().nullable(), reason: z.string() }),
  ),
});
export type BulkCommandResult = z.infer<typeof bulkCommandResultSchema>;

export const controlSettingsSchema = z.object({
  provider: z.enum(LOCK_PROVIDERS),
  lockApiUrl: z.string().nullable(),
  /** Whether a signing secret is stored; the secret itself is never returned. */
  lockApiSecretSet: z.boolean(),
  simulatorLatencyMs: z.number().int(),
  /** 0 to 1: the share of simulated deliveries that fail. */
  simulatorFailureRate: z.number(),
  maxAttempts: z.number().int(),
  retryBaseSeconds: z.number().int(),
  updatedAt: z.string().nullable(),
  /** Where a lock API sends its signed acknowledgements. */
  callbackPath: z.string(),
});
export type ControlSettings = z.infer<typeof controlSettingsSchema>;

export const controlSettingsBody = z
  .strictObject({
    provider: z.enum(LOCK_PROVIDERS, { error: `provider must be one of: ${LOCK_PROVIDERS.join(', ')}` }),
    lockApiUrl: z
      .url({ protocol: /^https?$/, error: 'The lock API URL must be an http(s) address' })
      .max(500, 'The URL must be at most 500 characters')
      .nullable()
      .optional(),
    /** A new signing secret; omitted keeps the stored one. */
    lockApiSecret: z
      .string({ error: 'The secret must be text' })
      .min(16, 'The secret must be at least 16 characters')
      .max(200, 'The secret must be at most 200 characters')
      .optional(),
    simulatorLatencyMs: z
      .number({ error: 'Latency must be a number of milliseconds' })
      .int('Latency must be whole milliseconds')
      .min(0, 'Latency cannot be negative')
      .max(30_000, 'Latency must be at most 30,000 ms'),
    simulatorFailureRate: z
      .number({ error: 'The failure rate must be a number from 0 to 1' })
      .min(0, 'The failure rate must be from 0 to 1')
      .max(1, 'The failure rate must be from 0 to 1'),
    maxAttempts: z
      .number({ error: 'Max attempts must be a whole number' })
      .int('Max attempts must be a whole number')
      .min(1, 'At least 1 attempt')
      .max(20, 'At most 20 attempts'),
    retryBaseSeconds: z
      .number({ error: 'The back-off must be a whole number of seconds' })
      .int('The back-off must be a whole number of seconds')
      .min(1, 'The back-off must be at least 1 second')
      .max(3600, 'The back-off must be at most 3600 seconds'),
  })
  .superRefine((body, context) => {
    if (body.provider === 'lock_api' && !body.lockApiUrl)
      context.addIssue({ code: 'custom', path: ['lockApiUrl'], message: 'The lock API needs its URL' });
  });
export type ControlSettingsBody = z.input<typeof controlSettingsBody>;

export const providerTestResultSchema = z.object({
  ok: z.boolean(),
  provider: z.enum(LOCK_PROVIDERS),
  latencyMs: z.number().int(),
  message: z.string(),
});
export type ProviderTestResult = z.infer<typeof providerTestResultSchema>;

/** A lock API's acknowledgement of a command it accepted earlier (signed like our requests). */
export const commandAckBody = z.strictObject({
  commandId: z.string({ error: 'commandId is required' }).min(1).max(100),
  status: z.enum(['acknowledged', 'failed'], { error: 'status must be acknowledged or failed' }),
  error: z.string().max(1000).optional(),
});
export const commandAckHeaders = z.object({
  'x-signature': z.string().max(300).optional(),
});

/** The header our signed requests carry, and a lock API's callbacks must carry: `t=<unix>,v1=<hex>`. */
export const SIGNATURE_HEADER = 'X-Signature';

const deviceId = idParams('device');
const commandId = idParams('command');

export const deviceControlEndpoints = {
  fleet: endpoint({ method: 'GET', path: '/api/device-control/fleet', response: fleetSummarySchema }),
  commands: endpoint({
    method: 'GET',
    path: '/api/device-control/commands',
    query: commandListQuery,
    response: commandPageSchema,
  }),
  command: endpoint({
    method: 'GET',
    path: '/api/device-control/commands/:id',
    params: commandId,
    response: deviceCommandWithAttemptsSchema,
  }),
  bulk: endpoint({
    method: 'POST',
    path: '/api/device-control/bulk',
    body: bulkCommandBody,
    response: bulkCommandResultSchema,
    status: 201,
  }),
  settings: endpoint({
    method: 'GET',
    path: '/api/device-control/settings',
    response: controlSettingsSchema,
  }),
  updateSettings: endpoint({
    method: 'PUT',
    path: '/api/device-control/settings',
    body: controlSettingsBody,
    response: controlSettingsSchema,
  }),
  testProvider: endpoint({
    method: 'POST',
    path: '/api/device-control/settings/test',
    response: providerTestResultSchema,
  }),
  deviceCommands: endpoint({
    method: 'GET',
    path: '/api/devices/:id/commands',
    params: deviceId,
    response: z.array(deviceCommandWithAttemptsSchema),
  }),
  manual: endpoint({
    method: 'POST',
    path: '/api/devices/:id/commands',
    params: deviceId,
    body: manualCommandBody,
    response: deviceCommandSchema,
    status: 201,
  }),
  ack: endpoint({
    method: 'POST',
    path: '/api/webhooks/device-control/ack',
    headers: commandAckHeaders,
    body: commandAckBody,
    response: okSchema,
  }),
};
