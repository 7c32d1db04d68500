import { createHash } from 'node:crypto';
import { and, desc, eq, max, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  KYC_DOCUMENT_LABELS,
  type KycDocument,
  type KycDocumentType,
  type KycStatus,
  REQUIRED_KYC_DOCUMENTS,
} from '../../../contracts/customers';
import type { Organisation } from '../../../contracts/profile';
import { customers, kycDocuments, users } from '../../../db/schema';
import { type Actor, type AuditEntry, writeAudit } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { AppContext, Executor, TxContext } from '../../context';
import { badRequest, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { fileStorage } from '../../storage';
import { transition } from '../../transitions';
import { checkDocumentContent, type DetectedType } from './document-content';
import { type DocumentRow, documentLifecycle } from './document-lifecycle';
import { customerListsChanged } from './list-cache';
import { type CustomerRow, personRef } from './present';
import { assessRisk, type KycEvidence, scorecardOf } from './risk';

export interface KycState {
  status: KycStatus;
  rejectionReason: string | null;
  /** Who made the deciding review (verified or rejected), and when. */
  reviewedBy: string | null;
  reviewedAt: Date | null;
  /** Required types whose latest upload is not verified. */
  missing: KycDocumentType[];
  evidence: KycEvidence;
}

/** The newest upload of each type (`docs` newest first). */
function latestByType(docs: readonly DocumentRow[]): Map<KycDocumentType, DocumentRow> {
  const latest = new Map<KycDocumentType, DocumentRow>();
  for (const doc of docs) if (!latest.has(doc.type)) latest.set(doc.type, doc);
  return latest;
}

/**
 * A customer's KYC status from their documents:
 * - not_started: no document yet;
 * - rejected (with the reason): the latest upload of a required type (id_front, selfie) was rejected;
 * - verified: the latest upload of every required type is verified;
 * - pending: anything else (documents awaiting review, or required ones still missing).
 * A new upload after a rejection is pending, so the status returns to pending.
 */
export function kycStateOf(docs: readonly DocumentRow[]): KycState {
  const latest = latestByType(docs);
  const verified = (type: KycDocumentType) => latest.get(type)?.status === 'verified';
  const evidence: KycEvidence = {
    idVerified: verified('id_front'),
    selfie: verified('selfie'),
    proofOfAddress: verified('proof_of_address'),
  };
  const missing = REQUIRED_KYC_DOCUMENTS.filter((type) => !verified(type));
  const base = { missing, evidence, reviewedBy: null, reviewedAt: null, rejectionReason: null };
  if (!docs.length) return { ...base, status: 'not_started' };
  const rejected = REQUIRED_KYC_DOCUMENTS.map((type) => latest.get(type)).find(
    (doc) => doc?.status === 'rejected',
  );
  if (rejected) {
    return {
      ...base,
      status: 'rejected',
      rejectionReason: `${KYC_DOCUMENT_LABELS[rejected.type]}: ${rejected.rejectionReason ?? 'rejected'}`,
      reviewedBy: rejected.reviewedBy,
      reviewedAt: rejected.reviewedAt,
    };
  }
  if (!missing.length) {
    const deciding = REQUIRED_KYC_DOCUMENTS.map((type) => latest.get(type))
      .filter((doc): doc is DocumentRow => !!doc)
      .sort((a, b) => (b.reviewedAt?.getTime() ?? 0) - (a.reviewedAt?.getTime() ?? 0))[0];
    return {
      ...base,
      status: 'verified',
      reviewedBy: deciding?.reviewedBy ?? null,
      reviewedAt: deciding?.reviewedAt ?? null,
    };
  }
  return { ...base, status: 'pending' };
}

async function documentRows(executor: Executor, customerId: string): Promise<DocumentRow[]> {
  return executor
    .select()
    .from(kycDocuments)
    .where(eq(kycDocuments.customerId, customerId))
    .orderBy(desc(kycDocuments.uploadedAt), desc(kycDocuments.id));
}

export async function loadKycState(executor: Executor, customerId: string): Promise<KycState> {
  return kycStateOf(await documentRows(executor, customerId));
}

/**
 * Re-derives the KYC status and the risk score of a customer whose row is locked in `tx`, and
 * saves them (a new version). Returns the new row and the audit entry of a status change, which
 * the caller writes last in its transaction.
 */
export async function refreshAssessment(
  ctx: TxContext,
  before: CustomerRow,
  org: Organisation,
): Promise<{ row: CustomerRow; audits: AuditEntry[] }> {
  const { tx } = ctx;
  const now = ctx.clock.now();
  const state = await loadKycState(tx, before.id);
  const risk = assessRisk(before, state.evidence, scorecardOf(org), businessDateOf(now, org), now);
  const [row] = await tx
    .update(customers)
    .set({
      kycStatus: state.status,
      kycRejectionReason: state.rejectionReason,
      kycReviewedBy: state.reviewedBy,
      kycReviewedAt: state.reviewedAt,
      ...risk,
      updatedAt: now,
      version: sql`${customers.version} + 1`,
    })
    .where(eq(customers.id, before.id))
    .returning();
  if (!row) throw notFound('Customer not found');
  await customerListsChanged(ctx, tx);
  const audits: AuditEntry[] = [];
  if (before.kycStatus !== row.kycStatus || before.kycRejectionReason !== row.kycRejectionReason) {
    audits.push({
      action: 'customer.kyc_status',
      entityType: 'customer',
      entityId: row.id,
      before: { kycStatus: before.kycStatus, reason: before.kycRejectionReason },
      after: { kycStatus: row.kycStatus, reason: row.kycRejectionReason },
    });
  }
  return { row, audits };
}

async function lockCustomer(ctx: TxContext, customerId: string): Promise<CustomerRow> {
  const [row] = await ctx.tx.select().from(customers).where(eq(customers.id, customerId)).for('update');
  if (!row) throw notFound('Customer not found');
  return row;
}

const uploader = alias(users, 'uploader');
const reviewer = alias(users, 'reviewer');

async function presentDocuments(executor: Executor, customerId: string, id?: string): Promise<KycDocument[]> {
  const rows = await executor
    .select({
      doc: kycDocuments,
      uploader: { id: uploader.id, firstName: uploader.firstName, lastName: uploader.lastName },
      reviewer: { id: reviewer.id, firstName: reviewer.firstName, lastName: reviewer.lastName },
    })
    .from(kycDocuments)
    .leftJoin(uploader, eq(uploader.id, kycDocuments.uploadedBy))
    .leftJoin(reviewer, eq(reviewer.id, kycDocuments.reviewedBy))
    .where(eq(kycDocuments.customerId, customerId))
    .orderBy(desc(kycDocuments.uploadedAt), desc(kycDocuments.id));
  const latest = latestByType(rows.map((row) => row.doc));
  return rows
    .filter((row) => id === undefined || row.doc.id === id)
    .map(({ doc, uploader, reviewer }) => ({
      id: doc.id,
      customerId: doc.customerId,
      type: doc.type,
      fileName: doc.fileName,
      mimeType: doc.mimeType,
      size: doc.size,
      sha256: doc.sha256,
      status: doc.status,
      rejectionReason: doc.rejectionReason,
      uploadedBy: personRef(uploader),
      uploadedAt: doc.uploadedAt.toISOString(),
      reviewedBy: personRef(reviewer),
      reviewedAt: doc.reviewedAt?.toISOString() ?? null,
      latest: latest.get(doc.type)?.id === doc.id,
    }));
}

async function assertCustomer(executor: Executor, customerId: string): Promise<void> {
  const [row] = await executor
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!row) throw notFound('Customer not found');
}

export async function listDocuments(ctx: AppContext, customerId: string): Promise<KycDocument[]> {
  await assertCustomer(ctx.db, customerId);
  return presentDocuments(ctx.db, customerId);
}

/** A file name fit to store and show: no path, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined, type: DetectedType): string {
  const base = (name ?? '')
    .split(/[\\/]/)
    .pop()
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    ?.replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  if (base) return base;
  return type === 'application/pdf' ? 'document.pdf' : type === 'image/png' ? 'image.png' : 'image.jpg';
}

export interface Upload {
  type: KycDocumentType;
  fileName: string | undefined;
  data: Buffer;
}

/**
 * Stores a KYC document: JPEG, PNG or PDF by content (checkDocumentContent), at most KYC_MAX_FILE_BYTES (the multipart
 * limit refuses larger ones before they are read whole). The file is written first and removed
 * again if the database refuses the row, so a refused upload leaves nothing behind.
 */
export async function uploadDocument(
  ctx: TxContext,
  actor: Actor,
  customerId: string,
  upload: Upload,
): Promise<{ document: KycDocument; kycStatus: KycStatus }> {
  if (!upload.data.length)
    throw badRequest('The file is empty', [{ field: 'file', message: 'The file is empty' }]);
  const mimeType = await checkDocumentContent(upload.data);
  const { tx } = ctx;
  const before = await lockCustomer(ctx, customerId);
  const org = await organisation(ctx, tx);
  const id = newId();
  const storageKey = `kyc/${customerId}/${id}`;
  const storage = fileStorage(ctx);
  // The file is written first and removed again if the transaction does not commit.
  await storage.put(storageKey, upload.data, mimeType);
  ctx.onRollback(() => storage.delete(storageKey));
  // Strictly after the previous upload, so "the latest upload of a type" is never a tie.
  const [previous] = await tx
    .select({ at: max(kycDocuments.uploadedAt) })
    .from(kycDocuments)
    .where(eq(kycDocuments.customerId, customerId));
  const now = ctx.clock.now();
  const uploadedAt =
    previous?.at && previous.at.getTime() >= now.getTime() ? new Date(previous.at.getTime() + 1) : now;
  const fileName = cleanFileName(upload.fileName, mimeType);
  const sha256 = createHash('sha256').update(upload.data).digest('hex');
  await tx.insert(kycDocuments).values({
    id,
    customerId,
    type: upload.type,
    storageKey,
    fileName,
    mimeType,
    size: upload.data.length,
    sha256,
    status: 'pending',
    uploadedBy: actor.id,
    uploadedAt,
  });
  const { row, audits } = await refreshAssessment(ctx, before, org);
  const [document] = await presentDocuments(tx, customerId, id);
  if (!document) throw new Error('Uploaded document not found');
  await writeAudit(tx, actor, {
    action: 'customer.document_upload',
    entityType: 'customer',
    entityId: customerId,
    after: { documentId: id, type: upload.type, fileName, mimeType, size: upload.data.length, sha256 },
  });
  for (const entry of audits) await writeAudit(tx, actor, entry);
  return { document, kycStatus: row.kycStatus };
}

/** Four eyes: the uploader never reviews their own upload. Only a pending document is reviewed. */
export async function reviewDocument(
  ctx: TxContext,
  actor: Actor,
  customerId: string,
  documentId: string,
  review: { decision: 'verify' | 'reject'; reason?: string | undefined },
): Promise<{ document: KycDocument; kycStatus: KycStatus }> {
  const before = await lockCustomer(ctx, customerId);
  const org = await organisation(ctx, ctx.tx);
  const reason = review.decision === 'reject' ? (review.reason ?? null) : null;
  let kycStatus: KycStatus = before.kycStatus;
  let customerAudits: AuditEntry[] = [];
  const doc = await transition(ctx, documentLifecycle(customerId), documentId, review.decision, {
    actor,
    check(doc) {
      if (doc.uploadedBy !== null && doc.uploadedBy === actor.id) {
        throw unprocessable('You uploaded this document; another person must review it', 'SAME_PERSON');
      }
    },
    change: () => ({ rejectionReason: reason }),
    async effects() {
      // The customer's KYC status and risk score follow from their documents.
      const refreshed = await refreshAssessment(ctx, before, org);
      kycStatus = refreshed.row.kycStatus;
      customerAudits = refreshed.audits;
    },
    alsoAudited: () => customerAudits,
    audit: (doc) => ({
      action: 'customer.document_review',
      entityType: 'customer',
      entityId: customerId,
      before: { documentId, type: doc.type, status: doc.status },
      after: {
        documentId,
        type: doc.type,
        status: review.decision === 'verify' ? 'verified' : 'rejected',
        reason,
      },
    }),
  });
  const [document] = await presentDocuments(ctx.tx, customerId, documentId);
  if (!document || document.id !== doc.id) throw new Error('Reviewed document not found');
  return { document, kycStatus };
}

export async function documentFile(
  ctx: AppContext,
  customerId: string,
  documentId: string,
): Promise<{ fileName: string; mimeType: string; data: Buffer }> {
  const [doc] = await ctx.db
    .select()
    .from(kycDocuments)
    .where(and(eq(kycDocuments.id, documentId), eq(kycDocuments.customerId, customerId)));
  if (!doc) throw notFound('Document not found');
  const data = await fileStorage(ctx).get(doc.storageKey);
  if (!data) throw notFound('The file of this document is missing from storage');
  return { fileName: doc.fileName, mimeType: doc.mimeType, data };
}
