import { and, asc, desc, gt, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../../../db/client';
import { customers, kycDocuments } from '../../../db/schema';
import { SYSTEM_ACTOR, writeAudit } from '../../audit';
import { businessDateOf } from '../../business-date';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/definition';
import { organisation } from '../../organisation';
import { withTransaction } from '../../transaction';
import { kycStateOf } from './kyc';
import { customerListsChanged } from './list-cache';
import { assessRisk, scorecardOf } from './risk';

const BATCH = 500;

/**
 * Redoes every stored risk score that another scorecard gave (the organisation changed its
 * income thresholds or currency, or the scorecard itself changed), over the customer's data and
 * KYC documents as they are now, a batch at a time. A customer changed while their batch was
 * being scored is left alone: that change scored them already. Risk is derived, so the row's
 * version (the lost-update guard for staff edits) does not move. Returns how many were rescored.
 */
export async function rescoreCustomers(ctx: AppContext): Promise<number> {
  const org = await organisation(ctx, ctx.db);
  const scorecard = scorecardOf(org);
  const { key } = scorecard;
  const now = ctx.clock.now();
  const today = businessDateOf(now, org);
  let after = '';
  let rescored = 0;
  for (;;) {
    const batch = await ctx.db
      .select({
        id: customers.id,
        version: customers.version,
        monthlyIncome: customers.monthlyIncome,
        dateOfBirth: customers.dateOfBirth,
        employment: customers.employment,
      })
      .from(customers)
      .where(and(gt(customers.id, after), sql`${customers.riskScorecard} IS DISTINCT FROM ${key}`))
      .orderBy(asc(customers.id))
      .limit(BATCH);
    const last = batch.at(-1);
    if (!last) break;
    after = last.id;
    const documents = await ctx.db
      .select()
      .from(kycDocuments)
      .where(
        inArray(
          kycDocuments.customerId,
          batch.map((row) => row.id),
        ),
      )
      .orderBy(desc(kycDocuments.uploadedAt), desc(kycDocuments.id));
    const byCustomer = new Map<string, typeof documents>();
    for (const doc of documents) {
      const list = byCustomer.get(doc.customerId);
      if (list) list.push(doc);
      else byCustomer.set(doc.customerId, [doc]);
    }
    const scored = batch.map((row) => {
      const risk = assessRisk(row, kycStateOf(byCustomer.get(row.id) ?? []).evidence, scorecard, today, now);
      return {
        id: row.id,
        version: row.version,
        score: risk.riskScore,
        grade: risk.riskGrade,
        decision: risk.riskDecision,
        details: risk.riskDetails,
      };
    });
    // A job: each batch is its own transaction (decision 011).
    const updated = await withTransaction(ctx, async ({ tx }) => {
      const rows = await queryRows<{ id: string }>(
        tx,
        sql`
        UPDATE ${customers} c
        SET risk_score = r.score, risk_grade = r.grade, risk_decision = r.decision,
            risk_details = r.details, risk_scorecard = ${key}, updated_at = ${ctx.clock.now()}
        FROM jsonb_to_recordset(${JSON.stringify(scored)}::jsonb)
             AS r(id text, version int, score int, grade text, decision text, details jsonb)
        WHERE c.id = r.id AND c.version = r.version
        RETURNING c.id`,
      );
      if (rows.length) await customerListsChanged(ctx, tx);
      return rows.length;
    });
    rescored += updated;
  }
  if (rescored) {
    await writeAudit(ctx.db, SYSTEM_ACTOR, {
      action: 'customer.rescore',
      entityType: 'customer',
      after: { customers: rescored, scorecard: key },
    });
  }
  return rescored;
}

/** Rescores at start and whenever the organisation's scorecard settings change; one run at a time. */
export const rescoreJob = defineJob({
  name: 'customers.rescore',
  description: 'Risk scores given by an earlier scorecard, redone with the current one',
  payload: z.object({}),
  schedule: { whenChanged: async (ctx) => scorecardOf(await organisation(ctx, ctx.db)).key },
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 60 * 60,
  singletonKey: 'all',
  run: async (ctx) => ({ rescored: await rescoreCustomers(ctx) }),
});
