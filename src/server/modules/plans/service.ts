import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Plan, PlanTerms } from '../../../contracts/plans';
import { prepared } from '../../../db/prepared';
import { contracts, deviceModels, servicePlans } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { AppContext, AppServices, Executor, TxContext } from '../../context';
import { AppError, conflict, type FieldError, notFound, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';

type PlanRow = typeof servicePlans.$inferSelect;

function toPlan(row: PlanRow, currency: string, contractCount: number): Plan {
  return {
    id: row.id,
    familyId: row.familyId,
    version: row.version,
    status: row.status,
    code: row.code,
    name: row.name,
    description: row.description,
    eligibleCategories: row.eligibleCategories,
    eligibleModelIds: row.eligibleModelIds,
    minDepositPercent: Number(row.minDepositPercent),
    minDepositAmount: row.minDepositAmount,
    frequency: row.frequency,
    allowedTerms: row.allowedTerms,
    apr: Number(row.apr),
    interestMethod: row.interestMethod,
    installmentMultiple: row.installmentMultiple,
    serviceFee: row.serviceFee,
    lateFeeKind: row.lateFeeKind,
    lateFeeValue: Number(row.lateFeeValue),
    graceDays: row.graceDays,
    lockAfterDays: row.lockAfterDays,
    defaultAfterDays: row.defaultAfterDays,
    allocationStrategy: row.allocationStrategy,
    earlySettlementDiscountPercent: Number(row.earlySettlementDiscountPercent),
    currency,
    createdAt: row.createdAt.toISOString(),
    activatedAt: row.activatedAt?.toISOString() ?? null,
    retiredAt: row.retiredAt?.toISOString() ?? null,
    contracts: contractCount,
  };
}

function toColumns(terms: PlanTerms) {
  return {
    ...terms,
    description: terms.description ?? null,
    allowedTerms: [...terms.allowedTerms].sort((a, b) => a - b),
    minDepositPercent: String(terms.minDepositPercent),
    apr: String(terms.apr),
    lateFeeValue: String(terms.lateFeeValue),
    earlySettlementDiscountPercent: String(terms.earlySettlementDiscountPercent),
  };
}

function termsOf(row: PlanRow): PlanTerms {
  const plan = toPlan(row, '', 0);
  return {
    code: plan.code,
    name: plan.name,
    description: plan.description ?? undefined,
    eligibleCategories: plan.eligibleCategories as PlanTerms['eligibleCategories'],
    eligibleModelIds: plan.eligibleModelIds,
    minDepositPercent: plan.minDepositPercent,
    minDepositAmount: plan.minDepositAmount,
    frequency: plan.frequency,
    allowedTerms: plan.allowedTerms,
    apr: plan.apr,
    interestMethod: plan.interestMethod,
    installmentMultiple: plan.installmentMultiple,
    serviceFee: plan.serviceFee,
    lateFeeKind: plan.lateFeeKind,
    lateFeeValue: plan.lateFeeValue,
    graceDays: plan.graceDays,
    lockAfterDays: plan.lockAfterDays,
    defaultAfterDays: plan.defaultAfterDays,
    allocationStrategy: plan.allocationStrategy,
    earlySettlementDiscountPercent: plan.earlySettlementDiscountPercent,
  };
}

/** The rules across fields, and the organisation's APR cap; every problem at once. */
async function validateTerms(ctx: AppServices, executor: Executor, terms: PlanTerms): Promise<void> {
  const errors: FieldError[] = [];
  if (terms.minDepositPercent >= 100)
    errors.push({ field: 'minDepositPercent', message: 'Minimum deposit % must be below 100' });
  if (terms.lateFeeKind === 'percent' && terms.lateFeeValue > 100) {
    errors.push({ field: 'lateFeeValue', message: 'A percentage late fee must be at most 100' });
  }
  if (terms.lateFeeKind === 'flat' && !Number.isInteger(terms.lateFeeValue)) {
    errors.push({ field: 'lateFeeValue', message: 'A flat late fee is a whole number of minor units' });
  }
  if (terms.lateFeeKind === 'none' && terms.lateFeeValue !== 0) {
    errors.push({ field: 'lateFeeValue', message: 'Choose a late fee kind, or leave the amount at 0' });
  }
  if (
    terms.lockAfterDays !== null &&
    terms.defaultAfterDays !== null &&
    terms.defaultAfterDays < terms.lockAfterDays
  ) {
    errors.push({
      field: 'defaultAfterDays',
      message: 'Default after days must not be before lock after days',
    });
  }
  if (terms.eligibleModelIds.length) {
    const found = await executor
      .select({ id: deviceModels.id })
      .from(deviceModels)
      .where(inArray(deviceModels.id, terms.eligibleModelIds));
    const known = new Set(found.map((row) => row.id));
    const unknown = terms.eligibleModelIds.filter((id) => !known.has(id));
    if (unknown.length)
      errors.push({ field: 'eligibleModelIds', message: `Unknown device model: ${unknown.join(', ')}` });
  }
  if (errors.length) {
    throw new AppError(400, 'VALIDATION', errors.map((e) => e.message).join('; '), errors);
  }
  const { aprCap } = await organisation(ctx, executor);
  if (aprCap !== null && terms.apr > aprCap) {
    throw unprocessable(`APR ${terms.apr}% is above the organisation's cap of ${aprCap}%`, 'APR_CAP');
  }
}

async function contractCounts(executor: Executor, planIds: string[]): Promise<Map<string, number>> {
  if (!planIds.length) return new Map();
  const rows = await executor
    .select({ planId: contracts.planId, n: count() })
    .from(contracts)
    .where(inArray(contracts.planId, planIds))
    .groupBy(contracts.planId);
  return new Map(rows.map((row) => [row.planId, Number(row.n)]));
}

async function present(ctx: AppServices, rows: PlanRow[], executor: Executor): Promise<Plan[]> {
  const { currency } = await organisation(ctx, executor);
  const counts = await contractCounts(
    executor,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPlan(row, currency, counts.get(row.id) ?? 0));
}

const planById = prepared('plan_by_id', (db) =>
  db
    .select()
    .from(servicePlans)
    .where(eq(servicePlans.id, sql.placeholder('id'))),
);

async function rowOf(executor: Executor, id: string, lock = false): Promise<PlanRow> {
  const [row] = lock
    ? await executor.select().from(servicePlans).where(eq(servicePlans.id, id)).for('update')
    : await planById(executor).execute({ id });
  if (!row) throw notFound('Service plan not found');
  return row;
}

function translateUnique(error: unknown): never {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  if (code === '23505')
    throw conflict('Another version of this plan changed at the same time; reload and try again');
  throw error;
}

/** A plan version written as a draft: the first of a new family, or the next of an existing one. */
async function insertDraftVersion(
  ctx: TxContext,
  actor: Actor,
  terms: PlanTerms,
  identity: { id: string; familyId: string; version: number },
) {
  const [row] = await ctx.tx
    .insert(servicePlans)
    .values({
      ...identity,
      status: 'draft',
      ...toColumns(terms),
      createdBy: actor.id,
      createdAt: ctx.clock.now(),
    })
    .returning();
  if (!row) throw new Error('Plan insert returned nothing');
  return row;
}

export async function createPlan(ctx: TxContext, actor: Actor, terms: PlanTerms): Promise<Plan> {
  await validateTerms(ctx, ctx.tx, terms);
  const [existing] = await ctx.tx
    .select({ id: servicePlans.id })
    .from(servicePlans)
    .where(eq(servicePlans.code, terms.code))
    .limit(1);
  if (existing)
    throw conflict(`A plan with code ${terms.code} exists; edit it to make a new version`, 'CODE_TAKEN');
  const id = newId();
  const { tx } = ctx;
  const row = await insertDraftVersion(ctx, actor, terms, { id, familyId: id, version: 1 });
  await writeAudit(tx, actor, {
    action: 'plan.create',
    entityType: 'service_plan',
    entityId: id,
    after: terms,
  });
  const [plan] = await present(ctx, [row], tx);
  if (!plan) throw new Error('Plan presentation failed');
  return plan;
}

/**
 * A draft changes in place. An active or retired plan is never changed (contracts hold its
 * terms): the change becomes the family's next version, as a draft to review and activate.
 */
export async function updatePlan(
  ctx: TxContext,
  actor: Actor,
  id: string,
  change: Partial<PlanTerms>,
): Promise<Plan> {
  const current = await rowOf(ctx.tx, id);
  if (change.code !== undefined && change.code !== current.code) {
    throw unprocessable(
      'The code names the plan family and cannot change; create a new plan instead',
      'CODE_FIXED',
    );
  }
  const terms: PlanTerms = { ...termsOf(current), ...change };
  await validateTerms(ctx, ctx.tx, terms);
  try {
    const { tx } = ctx;
    const locked = await rowOf(tx, id, true);
    if (locked.status === 'draft') {
      const [row] = await tx
        .update(servicePlans)
        .set(toColumns(terms))
        .where(eq(servicePlans.id, id))
        .returning();
      if (!row) throw notFound('Service plan not found');
      await writeAudit(tx, actor, {
        action: 'plan.update',
        entityType: 'service_plan',
        entityId: id,
        before: termsOf(locked),
        after: terms,
      });
      const [plan] = await present(ctx, [row], tx);
      if (!plan) throw new Error('Plan presentation failed');
      return plan;
    }
    const family = await tx
      .select()
      .from(servicePlans)
      .where(eq(servicePlans.familyId, locked.familyId))
      .orderBy(desc(servicePlans.version));
    const draft = family.find((row) => row.status === 'draft');
    if (draft)
      throw conflict(
        `Version ${draft.version} of ${locked.code} is already a draft: edit that one`,
        'DRAFT_EXISTS',
      );
    const versionId = newId();
    const row = await insertDraftVersion(ctx, actor, terms, {
      id: versionId,
      familyId: locked.familyId,
      version: (family[0]?.version ?? locked.version) + 1,
    });
    await writeAudit(tx, actor, {
      action: 'plan.new_version',
      entityType: 'service_plan',
      entityId: versionId,
      before: { id: locked.id, version: locked.version },
      after: terms,
    });
    const [plan] = await present(ctx, [row], tx);
    if (!plan) throw new Error('Plan presentation failed');
    return plan;
  } catch (error) {
    return translateUnique(error);
  }
}

/** Activating a version retires the family's previously active one. */
export async function activatePlan(ctx: TxContext, actor: Actor, id: string): Promise<Plan> {
  try {
    const { tx } = ctx;
    const row = await rowOf(tx, id, true);
    if (row.status !== 'draft')
      throw conflict(`Only a draft can be activated; this version is ${row.status}`);
    await validateTerms(ctx, tx, termsOf(row));
    const now = ctx.clock.now();
    const retired = await tx
      .update(servicePlans)
      .set({ status: 'retired', retiredAt: now })
      .where(and(eq(servicePlans.familyId, row.familyId), eq(servicePlans.status, 'active')))
      .returning({ id: servicePlans.id, version: servicePlans.version });
    const [updated] = await tx
      .update(servicePlans)
      .set({ status: 'active', activatedAt: now })
      .where(eq(servicePlans.id, id))
      .returning();
    if (!updated) throw notFound('Service plan not found');
    await writeAudit(tx, actor, {
      action: 'plan.activate',
      entityType: 'service_plan',
      entityId: id,
      after: { version: updated.version, retired: retired.map((r) => r.version) },
    });
    const [plan] = await present(ctx, [updated], tx);
    if (!plan) throw new Error('Plan presentation failed');
    return plan;
  } catch (error) {
    return translateUnique(error);
  }
}

/** Retiring stops new contracts on the version; live contracts keep their terms. */
export async function retirePlan(ctx: TxContext, actor: Actor, id: string): Promise<Plan> {
  const { tx } = ctx;
  const row = await rowOf(tx, id, true);
  if (row.status === 'retired') throw conflict('This version is already retired');
  const [updated] = await tx
    .update(servicePlans)
    .set({ status: 'retired', retiredAt: ctx.clock.now() })
    .where(eq(servicePlans.id, id))
    .returning();
  if (!updated) throw notFound('Service plan not found');
  await writeAudit(tx, actor, {
    action: 'plan.retire',
    entityType: 'service_plan',
    entityId: id,
    before: { status: row.status },
  });
  const [plan] = await present(ctx, [updated], tx);
  if (!plan) throw new Error('Plan presentation failed');
  return plan;
}

export async function getPlan(ctx: AppContext, id: string): Promise<Plan & { versions: Plan[] }> {
  const row = await rowOf(ctx.db, id);
  const family = await ctx.db
    .select()
    .from(servicePlans)
    .where(eq(servicePlans.familyId, row.familyId))
    .orderBy(asc(servicePlans.version));
  const versions = await present(ctx, family, ctx.db);
  const plan = versions.find((version) => version.id === id);
  if (!plan) throw notFound('Service plan not found');
  return { ...plan, versions };
}

/**
 * The plan version a new contract would use, as the contracts module read it: it must exist and
 * be active.
 */
export function planForContract(row: PlanRow | null): PlanRow {
  if (!row) throw notFound('Service plan not found');
  if (row.status !== 'active') {
    throw unprocessable(
      `Plan ${row.code} v${row.version} is ${row.status}; choose an active plan`,
      'PLAN_NOT_ACTIVE',
    );
  }
  return row;
}

export { termsOf as planTerms };

/** Plans as the API shows them, with their contract counts (for the list). */
export function presentPlans(ctx: AppContext, rows: PlanRow[]): Promise<Plan[]> {
  return present(ctx, rows, ctx.db);
}
