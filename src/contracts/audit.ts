import { z } from 'zod';

export const auditQuery = z.strictObject({
  action: z.string().max(100).optional(),
  entityType: z.string().max(100).optional(),
  entityId: z.string().max(200).optional(),
  /** Matches the actor's email (part of it, case-insensitive). */
  actor: z.string().max(200).optional(),
  from: z.iso.date('from must be a date (YYYY-MM-DD)').optional(),
  to: z.iso.date('to must be a date (YYYY-MM-DD)').optional(),
  /** Keyset pagination: rows with an id below this one. */
  before: z.coerce.number({ error: 'before must be a row id' }).int().positive().optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(200).default(50),
});
export type AuditQuery = z.input<typeof auditQuery>;

export const auditRowSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorLabel: z.string().nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  hash: z.string().nullable(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditPageSchema = z.object({
  rows: z.array(auditRowSchema),
  /** Pass as `before` for the next page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});

export const chainVerificationSchema = z.object({
  ok: z.boolean(),
  rows: z.number().int(),
  firstBrokenId: z.number().int().nullable(),
  reason: z.string().nullable(),
  lastHash: z.string().nullable(),
});
