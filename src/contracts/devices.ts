import { z } from 'zod';
import { type Endpoint, endpoint, idParams } from './endpoint';
import { listQuery, pageOf } from './lists';
import { movesFrom, type TransitionTable } from './transitions';

/** Device catalogue, units, status history and OpenPAYGO tokens (PRODUCT.md section 2; API.md). */

export const DEVICE_CATEGORIES = [
  'smartphone',
  'solar_home_system',
  'tv',
  'laptop',
  'tablet',
  'other',
] as const;
export const CONTROL_KINDS = ['openpaygo', 'lock_api', 'none'] as const;
export const DEVICE_STATUSES = [
  'in_stock',
  'reserved',
  'assigned',
  'returned',
  'repossessed',
  'written_off',
  'lost',
] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const LOCK_STATES = ['unlocked', 'locked', 'unknown'] as const;
/** The state a unit came back in from a customer (a repossession records it on the unit). */
export const DEVICE_CONDITIONS = ['good', 'damaged', 'parts_missing', 'unusable'] as const;
export type DeviceCondition = (typeof DEVICE_CONDITIONS)[number];
export const DEVICE_CONDITION_LABELS: Record<DeviceCondition, string> = {
  good: 'Good',
  damaged: 'Damaged',
  parts_missing: 'Parts missing',
  unusable: 'Unusable',
};
/** Device control commands (PRODUCT.md section 2, Device control) and their states. */
export const COMMAND_KINDS = ['lock', 'unlock', 'token', 'release'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];
export const COMMAND_STATES = ['queued', 'sent', 'acknowledged', 'failed'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
export const TOKEN_TYPES = ['ADD_TIME', 'SET_TIME', 'DISABLE_PAYG', 'COUNTER_SYNC'] as const;
/** A standard OpenPAYGO token carries at most this value (days × the unit's time divider). */
export const MAX_TOKEN_DAYS = 995;
/** The time divider of a unit (OpenPAYGO): the device counts time in 1/divider days (24: hours). */
export const MAX_TIME_DIVIDER = 995;

/** Tokens that give the customer use of the unit (time, or unlocked for good); COUNTER_SYNC gives none. */
export function tokenGivesUse(type: (typeof TOKEN_TYPES)[number]): boolean {
  return type !== 'COUNTER_SYNC';
}

/**
 * A unit's lifecycle. Contracts reserve a unit for a draft, assign it on activation and let it go
 * (cancellation, return, repossession); staff make the other moves by hand. `assigned` is entered
 * and left only through contracts, and `returned` / `repossessed` are the outcomes of those
 * contract events, so none of them is a move by hand. `written_off` is final.
 */
export const UNIT_TRANSITIONS = {
  // By contracts.
  reserve: { from: ['in_stock'], to: 'reserved' },
  assign: { from: ['in_stock', 'reserved'], to: 'assigned' },
  release: { from: ['reserved', 'assigned'], to: 'in_stock' },
  return: { from: ['assigned'], to: 'returned' },
  repossess: { from: ['assigned'], to: 'repossessed' },
  // By hand.
  restock: { from: ['reserved', 'returned', 'repossessed', 'lost'], to: 'in_stock' },
  hold: { from: ['in_stock'], to: 'reserved' },
  lose: { from: ['in_stock', 'reserved', 'returned', 'repossessed'], to: 'lost' },
  write_off: { from: ['in_stock', 'reserved', 'returned', 'repossessed', 'lost'], to: 'written_off' },
} as const satisfies TransitionTable<DeviceStatus>;
export type UnitMove = keyof typeof UNIT_TRANSITIONS;
export const UNIT_MOVES_BY_CONTRACT = ['reserve', 'assign', 'release', 'return', 'repossess'] as const;
export const UNIT_MOVES_BY_HAND = ['restock', 'hold', 'lose', 'write_off'] as const;
export type UnitMoveByHand = (typeof UNIT_MOVES_BY_HAND)[number];

/** The move by hand into a status (each status has at most one), if staff may move units there. */
export function moveByHandTo(to: DeviceStatus): UnitMoveByHand | undefined {
  return UNIT_MOVES_BY_HAND.find((move) => UNIT_TRANSITIONS[move].to === to);
}

const byHandFrom = (status: DeviceStatus): readonly DeviceStatus[] =>
  UNIT_MOVES_BY_HAND.filter((move) => movesFrom(UNIT_TRANSITIONS, status).includes(move)).map(
    (move) => UNIT_TRANSITIONS[move].to,
  );

/** Status changes staff may make by hand, per status (what the unit page offers). */
export const MANUAL_TRANSITIONS: Record<DeviceStatus, readonly DeviceStatus[]> = {
  in_stock: byHandFrom('in_stock'),
  reserved: byHandFrom('reserved'),
  assigned: byHandFrom('assigned'),
  returned: byHandFrom('returned'),
  repossessed: byHandFrom('repossessed'),
  written_off: byHandFrom('written_off'),
  lost: byHandFrom('lost'),
};

/** Luhn (mod 10) over all digits, the last being the check digit. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Why an IMEI is not acceptable, or null. */
export function imeiIssue(imei: string): string | null {
  if (!/^\d{15}$/.test(imei)) return 'IMEI must be 15 digits';
  if (!luhnValid(imei)) return 'IMEI check digit is wrong';
  return null;
}

export const SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;
export const SERIAL_MESSAGE = 'Serial number must be 1 to 64 letters, digits or . _ / -';

const money = (label: string) =>
  z
    .number({ error: `${label} must be a number (minor units)` })
    .int(`${label} must be a whole number of minor units`)
    .min(0, `${label} cannot be negative`)
    .max(Number.MAX_SAFE_INTEGER, `${label} is too large`);

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const sku = z
  .string({ error: 'SKU must be text' })
  .trim()
  .max(64, 'SKU must be at most 64 characters')
  .transform((value) => (value === '' ? null : value))
  .nullable()
  .optional();

const category = z.enum(DEVICE_CATEGORIES, {
  error: `Category must be one of: ${DEVICE_CATEGORIES.join(', ')}`,
});
const controlKind = z.enum(CONTROL_KINDS, {
  error: `Control kind must be one of: ${CONTROL_KINDS.join(', ')}`,
});

export const deviceModelCreateBody = z.strictObject({
  make: text('Make', 100),
  model: text('Model', 100),
  category,
  /** Minor units. */
  retailPrice: money('Retail price'),
  costPrice: money('Cost price').nullable().optional(),
  controlKind,
  sku,
});
export type DeviceModelCreateBody = z.input<typeof deviceModelCreateBody>;

export const deviceModelUpdateBody = z
  .strictObject({
    make: text('Make', 100).optional(),
    model: text('Model', 100).optional(),
    category: category.optional(),
    retailPrice: money('Retail price').optional(),
    costPrice: money('Cost price').nullable().optional(),
    controlKind: controlKind.optional(),
    sku,
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Nothing to change: give at least one field',
  });
export type DeviceModelUpdateBody = z.input<typeof deviceModelUpdateBody>;

export const deviceModelSchema = z.object({
  id: z.string(),
  make: z.string(),
  model: z.string(),
  /** Make and model, as shown. */
  name: z.string(),
  category: z.enum(DEVICE_CATEGORIES),
  sku: z.string().nullable(),
  retailPrice: z.number().int(),
  costPrice: z.number().int().nullable(),
  currency: z.string(),
  controlKind: z.enum(CONTROL_KINDS),
  active: z.boolean(),
  /** Units of this model in the inventory. */
  units: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeviceModel = z.infer<typeof deviceModelSchema>;

export const deviceModelListQuery = listQuery(['name', 'createdAt', 'retailPrice'], {
  category: category.optional(),
  controlKind: controlKind.optional(),
  active: z.enum(['true', 'false'], { error: 'active must be true or false' }).optional(),
});
export const deviceModelPageSchema = pageOf(deviceModelSchema);

const imei = z
  .string({ error: 'IMEI must be text' })
  .trim()
  .superRefine((value, context) => {
    const issue = value === '' ? null : imeiIssue(value);
    if (issue) context.addIssue({ code: 'custom', message: issue });
  })
  .transform((value) => (value === '' ? null : value));

export const secretKeySchema = z
  .string({ error: 'Secret key is required' })
  .trim()
  .regex(/^[0-9a-fA-F]{32}$/, 'Secret key must be 32 hexadecimal characters (16 bytes)')
  .transform((value) => value.toLowerCase());

/**
 * The official OpenPAYGO library treats a starting code of 0 as "none given" and derives one from
 * the key, so a device configured with 0 would refuse our tokens (decision 029).
 */
export const STARTING_CODE_ZERO =
  "Starting code 0 cannot be used: the official OpenPAYGO library replaces 0 with a code derived from the key. Give the device's starting code, or leave it empty to derive it from the key";

export const startingCodeSchema = z
  .union(
    [
      z.number().int().min(0).max(999_999_999),
      z
        .string()
        .trim()
        .regex(/^\d{1,9}$/),
    ],
    {
      error: 'Starting code must be a whole number of at most 9 digits',
    },
  )
  .transform((value) => Number(value))
  .refine((value) => value !== 0, { message: STARTING_CODE_ZERO });

export const timeDividerSchema = z
  .number({ error: 'Time divider must be a whole number' })
  .int('Time divider must be a whole number')
  .min(1, `Time divider must be from 1 to ${MAX_TIME_DIVIDER} (1: days, 24: hours)`)
  .max(MAX_TIME_DIVIDER, `Time divider must be from 1 to ${MAX_TIME_DIVIDER} (1: days, 24: hours)`);

export const deviceCreateBody = z.strictObject({
  serialNumber: z
    .string({ error: 'Serial number is required' })
    .trim()
    .min(1, 'Serial number is required')
    .regex(SERIAL_PATTERN, SERIAL_MESSAGE),
  modelId: z.uuid('Choose a device model'),
  /** 15 digits with a valid Luhn check digit (phones). */
  imei: imei.nullable().optional(),
  /** Required for OpenPAYGO models, refused for others. The key is stored encrypted and never returned. */
  control: z
    .strictObject(
      {
        kind: z.literal('openpaygo', { error: 'Control kind must be openpaygo' }),
        secretKey: secretKeySchema,
        /** Derived from the key, as the OpenPAYGO specification does, when omitted. */
        startingCode: startingCodeSchema.optional(),
        /** Token values are days × this (the device's firmware setting); 1 when omitted. */
        timeDivider: timeDividerSchema.optional(),
      },
      { error: 'Control must be an object {kind, secretKey, startingCode?, timeDivider?}' },
    )
    .optional(),
  notes: z
    .string({ error: 'Notes must be text' })
    .trim()
    .max(1000, 'Notes must be at most 1000 characters')
    .optional(),
});
export type DeviceCreateBody = z.input<typeof deviceCreateBody>;
export type DeviceCreateInput = z.output<typeof deviceCreateBody>;

export const deviceUpdateBody = z
  .strictObject({
    imei: imei.nullable().optional(),
    notes: z
      .string({ error: 'Notes must be text' })
      .trim()
      .max(1000, 'Notes must be at most 1000 characters')
      .nullable()
      .optional(),
    /** OpenPAYGO units only: the device's time divider, set to match its firmware. */
    timeDivider: timeDividerSchema.optional(),
  })
  .refine((body) => body.imei !== undefined || body.notes !== undefined || body.timeDivider !== undefined, {
    message: 'Nothing to change: give imei, notes or timeDivider',
  });
export type DeviceUpdateBody = z.input<typeof deviceUpdateBody>;

const personRef = z.object({ id: z.string(), name: z.string() });

export const deviceSchema = z.object({
  id: z.string(),
  serialNumber: z.string(),
  imei: z.string().nullable(),
  model: z.object({
    id: z.string(),
    make: z.string(),
    model: z.string(),
    name: z.string(),
    category: z.enum(DEVICE_CATEGORIES),
    sku: z.string().nullable(),
  }),
  status: z.enum(DEVICE_STATUSES),
  lockState: z.enum(LOCK_STATES),
  activeUntil: z.string().nullable(),
  controlKind: z.enum(CONTROL_KINDS),
  /** OpenPAYGO settings, never the secret key. */
  control: z
    .object({
      kind: z.literal('openpaygo'),
      startingCode: z.number().int(),
      count: z.number().int(),
      timeDivider: z.number().int(),
    })
    .nullable(),
  notes: z.string().nullable(),
  /** The state the unit came back in from a customer (a repossession records it), and what was seen. */
  condition: z.enum(DEVICE_CONDITIONS).nullable(),
  conditionNotes: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Device = z.infer<typeof deviceSchema>;

export const deviceEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  from: z.enum(DEVICE_STATUSES).nullable(),
  to: z.enum(DEVICE_STATUSES),
  reason: z.string().nullable(),
  contractId: z.string().nullable(),
  actor: personRef.nullable(),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;

/**
 * The live contract (active or defaulted) a unit is with, and where it stands today: its
 * paid-through date (the same date the contract page shows) and its arrears.
 */
export const contractStandingSchema = z.object({
  id: z.string(),
  number: z.string(),
  currency: z.string(),
  paidThrough: z.string(),
  /** Days past due; 0 when nothing is overdue. */
  dpd: z.number().int().nonnegative(),
  /** Unpaid amount of the instalments already due, in minor units. */
  overdue: z.number().int().nonnegative(),
});
export type ContractStanding = z.infer<typeof contractStandingSchema>;

export const deviceDetailSchema = deviceSchema.extend({
  /** Status history, newest first. */
  events: z.array(deviceEventSchema),
  /** Where staff may move it by hand from its current status. */
  allowedTransitions: z.array(z.enum(DEVICE_STATUSES)),
  contract: contractStandingSchema.nullable(),
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

export const deviceListQuery = listQuery(['createdAt', 'serialNumber', 'status'], {
  status: z
    .enum(DEVICE_STATUSES, { error: `status must be one of: ${DEVICE_STATUSES.join(', ')}` })
    .optional(),
  modelId: z.uuid('modelId must be a device model id').optional(),
  category: category.optional(),
  lockState: z.enum(LOCK_STATES, { error: `lockState must be one of: ${LOCK_STATES.join(', ')}` }).optional(),
  controlKind: controlKind.optional(),
});
export const devicePageSchema = pageOf(deviceSchema);

export const deviceStatusBody = z.strictObject({
  status: z.enum(DEVICE_STATUSES, { error: `Status must be one of: ${DEVICE_STATUSES.join(', ')}` }),
  reason: z
    .string({ error: 'Give the reason for the change' })
    .trim()
    .min(3, 'Give the reason for the change')
    .max(500, 'Reason must be at most 500 characters'),
});
export type DeviceStatusBody = z.input<typeof deviceStatusBody>;

/** Column names of a device import file (a header row, any order). */
export const IMPORT_COLUMNS = [
  'serial_number',
  'model_sku',
  'make',
  'model',
  'imei',
  'openpaygo_secret_key',
  'openpaygo_starting_code',
  'openpaygo_time_divider',
] as const;
export const IMPORT_MAX_ROWS = 50_000;
/** JSON bodies of an import are at most this long; larger files go as multipart. */
export const IMPORT_MAX_JSON_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export const deviceImportBody = z.strictObject({
  csv: z
    .string({ error: 'csv is required: the file as text' })
    .min(1, 'csv is required: the file as text')
    .max(IMPORT_MAX_FILE_BYTES, 'The file is too large'),
  /** true: validate and preview only, write nothing. */
  dryRun: z.boolean({ error: 'dryRun must be true or false' }).default(false),
});
export type DeviceImportBody = z.input<typeof deviceImportBody>;

export const importRowErrorSchema = z.object({
  /** Position in the file, the header being row 1. */
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const deviceImportResultSchema = z.object({
  dryRun: z.boolean(),
  /** Data rows in the file. */
  rows: z.number().int(),
  valid: z.number().int(),
  errors: z.array(importRowErrorSchema),
  /** Units created (0 for a dry run or a refused import). */
  imported: z.number().int(),
  /** The first rows as they would be (or were) imported. */
  preview: z.array(
    z.object({
      row: z.number().int(),
      serialNumber: z.string(),
      imei: z.string().nullable(),
      model: z.string(),
      controlKind: z.enum(CONTROL_KINDS),
    }),
  ),
});
export type DeviceImportResult = z.infer<typeof deviceImportResultSchema>;

export const tokenCreateBody = z
  .strictObject({
    type: z.enum(TOKEN_TYPES, { error: `Token type must be one of: ${TOKEN_TYPES.join(', ')}` }),
    /**
     * ADD_TIME and SET_TIME only: days, in steps of 1/divider of a day on a unit with a time
     * divider; the token's value, days × divider, is at most 995.
     */
    days: z
      .number({ error: 'days must be a number' })
      .min(0, 'days cannot be negative')
      .max(MAX_TOKEN_DAYS, `days must be at most ${MAX_TOKEN_DAYS}`)
      .optional(),
    /** Needed, with the override permission, to give use to a unit whose contract is in arrears. */
    overrideReason: z
      .string({ error: 'The override reason must be text' })
      .trim()
      .min(3, 'Give the reason for the override')
      .max(500, 'The override reason must be at most 500 characters')
      .optional(),
  })
  .superRefine((body, context) => {
    const timed = body.type === 'ADD_TIME' || body.type === 'SET_TIME';
    if (timed && body.days === undefined) {
      context.addIssue({ code: 'custom', path: ['days'], message: `${body.type} needs the number of days` });
    } else if (body.type === 'ADD_TIME' && body.days === 0) {
      context.addIssue({ code: 'custom', path: ['days'], message: 'ADD_TIME needs more than 0 days' });
    } else if (!timed && body.days !== undefined) {
      context.addIssue({ code: 'custom', path: ['days'], message: `${body.type} takes no days` });
    }
  });
export type TokenCreateBody = z.input<typeof tokenCreateBody>;

export const issuedTokenSchema = z.object({
  /** 9 digits, for the customer to type into the device. */
  token: z.string(),
  type: z.enum(TOKEN_TYPES),
  /** The value in the token (days × time divider) for ADD_TIME / SET_TIME; null for the others. */
  value: z.number().int().nullable(),
  /** The days it gives: value / time divider (a fraction on a unit with a divider). */
  days: z.number().nullable(),
  timeDivider: z.number().int(),
  /** The token's count; the device's count is now this. */
  count: z.number().int(),
  id: z.string(),
  issuedAt: z.string(),
});
export type IssuedToken = z.infer<typeof issuedTokenSchema>;

export const deviceTokenSchema = issuedTokenSchema.extend({
  issuedBy: personRef.nullable(),
  contractId: z.string().nullable(),
});
export type DeviceToken = z.infer<typeof deviceTokenSchema>;

const deviceId = idParams('device');
const modelId = idParams('device model');

/** /api/devices: the units in stock and in the field, their tokens and imports. */
export const deviceEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/devices', query: deviceListQuery, response: devicePageSchema }),
  create: endpoint({
    method: 'POST',
    path: '/api/devices',
    body: deviceCreateBody,
    response: deviceDetailSchema,
    status: 201,
  }),
  /**
   * A CSV import, as JSON {csv, dryRun} or as multipart (one "file" and "dryRun", turned into that
   * body before validation: `deviceImportUpload`). A dry run answers 200, an import 201.
   */
  import: endpoint({
    method: 'POST',
    path: '/api/devices/import',
    body: deviceImportBody,
    response: deviceImportResultSchema,
    status: 201,
    alsoStatus: 200,
  }),
  get: endpoint({ method: 'GET', path: '/api/devices/:id', params: deviceId, response: deviceDetailSchema }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/devices/:id',
    params: deviceId,
    body: deviceUpdateBody,
    response: deviceDetailSchema,
  }),
  changeStatus: endpoint({
    method: 'POST',
    path: '/api/devices/:id/status',
    params: deviceId,
    body: deviceStatusBody,
    response: deviceDetailSchema,
  }),
  issueToken: endpoint({
    method: 'POST',
    path: '/api/devices/:id/tokens',
    params: deviceId,
    body: tokenCreateBody,
    response: issuedTokenSchema,
    status: 201,
  }),
  tokens: endpoint({
    method: 'GET',
    path: '/api/devices/:id/tokens',
    params: deviceId,
    response: z.array(deviceTokenSchema),
  }),
};

/**
 * The import sent as a file (multipart: "file" and "dryRun"), as the web sends it: the same route
 * as `deviceEndpoints.import`, whose body schema checks the form once the server has read it.
 */
export const deviceImportUpload = {
  ...deviceEndpoints.import,
  body: 'multipart',
} as const satisfies Endpoint;

/** /api/device-models: the catalogue. */
export const deviceModelEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/device-models',
    query: deviceModelListQuery,
    response: deviceModelPageSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/device-models',
    body: deviceModelCreateBody,
    response: deviceModelSchema,
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/device-models/:id',
    params: modelId,
    response: deviceModelSchema,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/device-models/:id',
    params: modelId,
    body: deviceModelUpdateBody,
    response: deviceModelSchema,
  }),
  deactivate: endpoint({
    method: 'POST',
    path: '/api/device-models/:id/deactivate',
    params: modelId,
    response: deviceModelSchema,
  }),
  activate: endpoint({
    method: 'POST',
    path: '/api/device-models/:id/activate',
    params: modelId,
    response: deviceModelSchema,
  }),
};
