import { and, eq, sql } from 'drizzle-orm';
import { DOCUMENT_TRANSITIONS, type DocumentMove, type DocumentStatus } from '../../../contracts/customers';
import { kycDocuments } from '../../../db/schema';
import { conflict, notFound } from '../../errors';
import type { Lifecycle } from '../../transitions';

export type DocumentRow = typeof kycDocuments.$inferSelect;

/** What a review writes beside the status and version (a document has no timeline: its audit rows are its history). */
export interface DocumentChange {
  rejectionReason: string | null;
}

/** A KYC document's lifecycle, for one customer's documents (a document of another customer is not found). */
export function documentLifecycle(
  customerId: string,
): Lifecycle<DocumentStatus, DocumentMove, DocumentRow, DocumentChange> {
  return {
    table: DOCUMENT_TRANSITIONS,
    async lock(ctx, id) {
      const [doc] = await ctx.tx
        .select()
        .from(kycDocuments)
        .where(and(eq(kycDocuments.id, id), eq(kycDocuments.customerId, customerId)))
        .for('update');
      if (!doc) throw notFound('Document not found');
      return doc;
    },
    refusal: (doc) => conflict(`This document was already ${doc.status}`, 'ALREADY_REVIEWED'),
    async write(ctx, doc, move, change, actor) {
      await ctx.tx
        .update(kycDocuments)
        .set({
          status: DOCUMENT_TRANSITIONS[move].to,
          rejectionReason: change.rejectionReason,
          reviewedBy: actor.id,
          reviewedAt: ctx.clock.now(),
          version: sql`${kycDocuments.version} + 1`,
        })
        .where(eq(kycDocuments.id, doc.id));
    },
  };
}
