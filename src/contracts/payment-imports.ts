import { z } from 'zod';
import { endpoint, idParams } from './endpoint';
import { IMPORT_STATUSES, POSTING_METHODS } from './payments';

/**
 * Statement imports (PRODUCT.md section 3, /payment-processing): a CSV or XLSX file is uploaded,
 * its columns mapped (remembered per source), every row checked and previewed with its problem;
 * nothing is posted until the import is confirmed, and a row whose (method, reference) is already
 * posted is "already posted", never posted twice.
 */

export const IMPORT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_FILE_MAX_ROWS = 50_000;
/** Rows shown in the upload's answer; the rest are paged with `rows`. */
export const IMPORT_PREVIEW_ROWS = 50;
export const IMPORT_ROWS_PAGE_SIZE = 100;

/** Which contract field the contract column holds. */
export const IMPORT_CONTRACT_KEYS = ['contract_number', 'device_serial', 'phone'] as const;
export type ImportContractKey = (typeof IMPORT_CONTRACT_KEYS)[number];
/** How the date column is written: ISO (2025-03-31, with an optional time) or day first (31/03/2025). */
export const IMPORT_DATE_FORMATS = ['iso', 'dmy'] as const;
/** What a statement row may be posted as (deposits and adjustments are not statement lines). */
export const IMPORT_METHODS = [
  'mobile_money',
  'bank_transfer',
  'card',
  'cash',
] as const satisfies readonly (typeof POSTING_METHODS)[number][];

/**
 * Why a row is not posted. `already_posted` is not a problem: the same payment (method and
 * reference, same contract and amount) is already recorded, so the row is skipped.
 */
export const IMPORT_ROW_ISSUES = [
  'unmapped',
  'unknown_contract',
  'contract_not_active',
  'bad_amount',
  'bad_date',
  'missing_reference',
  'duplicate_in_file',
  'duplicate_reference',
  'bad_method',
  'failed',
  'already_posted',
] as const;
export type ImportRowIssue = (typeof IMPORT_ROW_ISSUES)[number];

/** valid: will be posted on confirm; posted: this import posted it. */
export const IMPORT_ROW_STATUSES = ['valid', 'posted', 'already_posted', 'error'] as const;

const column = z.string().trim().min(1, 'Choose a column').max(200);

/** Which column (by its header) holds each field. */
export const importMappingSchema = z.strictObject({
  contract: column,
  contractKey: z.enum(IMPORT_CONTRACT_KEYS).default('contract_number'),
  amount: column,
  reference: column,
  date: column,
  dateFormat: z.enum(IMPORT_DATE_FORMATS).default('iso'),
  /** A column naming each row's method; without it every row takes the import's method. */
  method: column.nullable().optional(),
});
export type ImportMapping = z.output<typeof importMappingSchema>;
export type ImportMappingInput = z.input<typeof importMappingSchema>;

/** A mapping as suggested or remembered: a field may still be unmapped (null). */
export const draftMappingSchema = z.object({
  contract: z.string().nullable(),
  contractKey: z.enum(IMPORT_CONTRACT_KEYS),
  amount: z.string().nullable(),
  reference: z.string().nullable(),
  date: z.string().nullable(),
  dateFormat: z.enum(IMPORT_DATE_FORMATS),
  method: z.string().nullable(),
});
export type DraftMapping = z.infer<typeof draftMappingSchema>;

export const importRowSchema = z.object({
  /** The row's line in the file (the header is line 1). */
  rowNumber: z.number().int(),
  status: z.enum(IMPORT_ROW_STATUSES),
  /** The contract reference as found (the contract's number once matched). */
  contractNumber: z.string().nullable(),
  contractId: z.string().nullable(),
  /** Minor units. */
  amount: z.number().int().nullable(),
  reference: z.string().nullable(),
  receivedAt: z.string().nullable(),
  method: z.string().nullable(),
  issue: z.enum(IMPORT_ROW_ISSUES).nullable(),
  /** The problem in words (null for a valid or posted row). */
  error: z.string().nullable(),
  paymentId: z.string().nullable(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const paymentImportSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  source: z.string(),
  method: z.enum(POSTING_METHODS),
  status: z.enum(IMPORT_STATUSES),
  /** The file's column headers, in order. */
  columns: z.array(z.string()),
  mapping: draftMappingSchema,
  /** Fields still to map before the rows can be checked (empty when the mapping is complete). */
  unmapped: z.array(z.string()),
  currency: z.string(),
  rowCount: z.number().int(),
  /** Rows that confirm will post. */
  validCount: z.number().int(),
  /** Progress while posting: rows posted so far, out of validCount. */
  postedCount: z.number().int(),
  postedAmount: z.number().int(),
  /** The total of the rows confirm will post (minor units), for the confirmation. */
  validAmount: z.number().int(),
  /** Rows by issue (already_posted included). */
  errorsByKind: z.record(z.string(), z.number().int()),
  /** An earlier import of the same file (same SHA-256), if any. */
  sameFileAs: z.object({ id: z.string(), status: z.enum(IMPORT_STATUSES), createdAt: z.string() }).nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
});
export type PaymentImport = z.infer<typeof paymentImportSchema>;

/** The upload's and re-mapping's answer: the import and its first rows. */
export const importPreviewSchema = paymentImportSchema.extend({ rows: z.array(importRowSchema) });
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importRowsQuery = z.strictObject({
  errorsOnly: z
    .enum(['true', 'false'], { error: 'errorsOnly must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1).max(10_000).default(1),
});
export const importRowsPageSchema = z.object({
  items: z.array(importRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const importListQuery = z.strictObject({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1).max(10_000).default(1),
});
export const importPageSchema = z.object({
  items: z.array(paymentImportSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const sourceSchema = z
  .string({ error: 'Name the source (e.g. equity-bank)' })
  .trim()
  .min(1, 'Name the source (e.g. equity-bank)')
  .max(100, 'The source is at most 100 characters');

/** A query, not a path segment: a source name is free text (path parameters are ids here). */
export const importMappingQuery = z.strictObject({ source: sourceSchema });
export const rememberedMappingSchema = z.object({
  source: z.string(),
  mapping: draftMappingSchema.nullable(),
  updatedAt: z.string().nullable(),
});

export const remapBody = z.strictObject({ mapping: importMappingSchema });

const importId = idParams('import');

/**
 * /api/payment-imports. The upload is multipart/form-data: one "file" (CSV or XLSX), "source",
 * "method" (one of IMPORT_METHODS) and an optional "mapping" (JSON of importMappingSchema).
 * Confirm starts posting and answers the import (status `posting` while rows are posted,
 * `posted` when done); poll `get` for `postedCount` out of `validCount`.
 */
export const paymentImportEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/payment-imports',
    query: importListQuery,
    response: importPageSchema,
  }),
  upload: endpoint({
    method: 'POST',
    path: '/api/payment-imports',
    body: 'multipart',
    response: importPreviewSchema,
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/payment-imports/:id',
    params: importId,
    response: paymentImportSchema,
  }),
  remap: endpoint({
    method: 'PUT',
    path: '/api/payment-imports/:id/mapping',
    params: importId,
    body: remapBody,
    response: importPreviewSchema,
  }),
  rows: endpoint({
    method: 'GET',
    path: '/api/payment-imports/:id/rows',
    params: importId,
    query: importRowsQuery,
    response: importRowsPageSchema,
  }),
  confirm: endpoint({
    method: 'POST',
    path: '/api/payment-imports/:id/confirm',
    params: importId,
    response: paymentImportSchema,
  }),
  discard: endpoint({
    method: 'POST',
    path: '/api/payment-imports/:id/discard',
    params: importId,
    response: paymentImportSchema,
  }),
  /** The rows not posted by this import, with why (a CSV download). */
  refused: endpoint({
    method: 'GET',
    path: '/api/payment-imports/:id/refused.csv',
    params: importId,
    response: 'file',
  }),
  mapping: endpoint({
    method: 'GET',
    path: '/api/import-mappings',
    query: importMappingQuery,
    response: rememberedMappingSchema,
  }),
};
