import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * Every action the audit log records, `<entity>.<what happened>`. The server writes only these
 * (`writeAudit` takes an `AuditAction`), and the audit page offers them as filter suggestions.
 * Add a module's actions here when it starts writing them.
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.admin_login',
  'auth.login_failed',
  'auth.admin_login_refused',
  'auth.logout',
  'user.register',
  'user.demo_seed',
  'user.update',
  'user.profile',
  'user.password_change',
  'user.two_factor_enable',
  'user.two_factor_disable',
  'user.recovery_codes',
  'user.sessions_revoke_others',
  'invite.create',
  'invite.revoke',
  'organisation.update',
  /** A message template's body edited (decision 027). */
  'message_template.update',
  /** A template staff created (or a language or channel added to a key), deleted, or restored to an earlier version. */
  'message_template.create',
  'message_template.delete',
  'message_template.restore',
  /** A single message sent from a customer's or contract's page; a failed message queued again. */
  'message.send',
  'message.retry',
  /** A saved segment (a filter over customers and contracts) created, changed or deleted. */
  'segment.create',
  'segment.update',
  'segment.delete',
  /** A bulk send confirmed (scheduled) or cancelled before it was queued. */
  'bulk_send.create',
  'bulk_send.cancel',
  /** The business date moved forward (BUSINESS_DATE_CONTROL instances only). */
  'organisation.business_date',
  'plan.create',
  'plan.update',
  'plan.new_version',
  'plan.activate',
  'plan.retire',
  'customer.create',
  'customer.update',
  'customer.consent_given',
  'customer.consent_withdrawn',
  'customer.document_upload',
  'customer.document_review',
  'customer.kyc_status',
  'customer.rescore',
  'device_model.create',
  'device_model.update',
  'device_model.activate',
  'device_model.deactivate',
  'device.create',
  'device.import',
  'device.update',
  'device.status',
  'device.token',
  /** A token giving use to a unit whose contract is in arrears, by manual override with a reason. */
  'device.token_override',
  /** A device command (lock, unlock, token, release) queued by hand, with its reason. */
  'device.command',
  /** Lock or unlock queued for several units at once (one row naming them). */
  'device.command_bulk',
  /** A unit's lock state followed an acknowledged command. */
  'device.lock_state',
  /** OpenPAYGO units whose time ran out, recorded locked by a close of business (one row naming them). */
  'device.time_ran_out',
  /** Device control's provider settings (which provider, URL, secret, simulator). */
  'device_control.settings',
  /** The messaging providers' settings (providers, URLs, rate limits; secrets only as changed or not). */
  'messaging.settings',
  /** An OpenPAYGO Metrics request accepted from a unit (its readings, the tokens sent back). */
  'device.metrics',
  'contract.create',
  'contract.submit',
  'contract.approve',
  'contract.return',
  'contract.deposit',
  'contract.activate',
  'contract.cancel',
  /** Closed by a repossession's recovery (recoveries). */
  'contract.repossess',
  /** Its balance written off by an approved write-off request, or at a repossession's recovery. */
  'contract.write_off',
  'repossession.request',
  'repossession.approve',
  'repossession.reject',
  'repossession.recover',
  'repossession.cancel',
  'write_off.request',
  'write_off.approve',
  'write_off.reject',
  /** A line on the customer's timeline: a repossession or write-off of one of their contracts. */
  'customer.recovery',
  /** Contracts moved to defaulted by a close of business step (one row per step, naming them). */
  'contract.default',
  'payment.create',
  'payment.reverse_request',
  'payment.transfer_request',
  'payment.correction_approve',
  'payment.correction_reject',
  'payment.suspense',
  'payment.match',
  'payment.refund',
  'payment.import',
  'payment.import_confirm',
  'payment.import_discard',
  'payment.push',
  'mandate.create',
  'mandate.update',
  'business_date.move',
  'job.run',
  /** A close of business asked for by a person (API.md "Batch and assistant"). */
  'eod.run',
  /** Collections: an action logged on a case (its row is about the customer: their timeline). */
  'collections.action',
  'collections.assign',
  'collections.auto_assign',
  'collections.collector_settings',
  /** A manager scored the queue now, between closes of business. */
  'collections.refresh',
  /** A close of business checked the promises due (one row per date). */
  'collections.promises_checked',
  /** A person took a conversation over from the assistant, or handed it back (issue 15). */
  'conversation.take_over',
  'conversation.hand_back',
  /** An unknown number's thread linked to a customer. */
  'conversation.link',
  /** A staff task (a hand-off) marked done. */
  'task.done',
  /** The public demo's content (issue 16): a draft saved, published, an earlier version made the draft. */
  'demo.draft_save',
  'demo.publish',
  'demo.revert',
  'demo.image_upload',
  /** Investor codes: issued (shown once), revoked, used to sign in. */
  'investor_code.issue',
  'investor_code.revoke',
  'investor_code.login',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an audit row is about: the `entity_type` column, with `entity_id` naming the row. */
export const AUDIT_ENTITY_TYPES = [
  'user',
  /** An outbox row (a single send, a retry). */
  'message',
  'segment',
  'bulk_send',
  'invite',
  'organisation',
  /** Its id is `key:channel:language`. */
  'message_template',
  'service_plan',
  'customer',
  'device_model',
  'device',
  'contract',
  'payment',
  'payment_correction',
  'repossession',
  'write_off_request',
  'payment_import',
  'debit_mandate',
  'job',
  /** A close of business run: its id is the business date. */
  'eod_run',
  /** The device control provider settings (one row). */
  'device_control_settings',
  /** The messaging providers' settings (one row). */
  'messaging_settings',
  /** Collections cases (bulk assignment names them in `after`). */
  'collection_case',
  /** A collector's settings: the id is the user's. */
  'collector',
  /** A customer-service thread (one per phone number). */
  'conversation',
  'staff_task',
  /** A version of the public demo's content, and an image it shows. */
  'demo_version',
  'demo_image',
  'investor_code',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/** The audit page's filters: free text (the page suggests AUDIT_ACTIONS), matched exactly. */
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

/** /api/audit: the append-only log, filtered and paged, and the chain check. */
export const auditEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/audit', query: auditQuery, response: auditPageSchema }),
  verify: endpoint({ method: 'GET', path: '/api/audit/verify', response: chainVerificationSchema }),
};
