import { eq, sql } from 'drizzle-orm';
import { type Plan, planEndpoints } from '../../../contracts/plans';
import { servicePlans } from '../../../db/schema';
import { csvOf, defineList } from '../../list-definition';
import { searchCondition } from '../../lists';
import { presentPlans } from './service';

/** /api/service-plans: a few dozen rows at most, so nothing is cached. */
export const planList = defineList({
  name: 'plan',
  endpoint: planEndpoints.list,
  shows: [servicePlans],
  search: (q) => searchCondition(sql`lower(${servicePlans.code} || ' ' || ${servicePlans.name})`, q),
  filters: {
    status: (status) => eq(servicePlans.status, status),
    frequency: (frequency) => eq(servicePlans.frequency, frequency),
    // By default only the newest version of each family.
    allVersions: (all) =>
      all === 'false'
        ? sql`${servicePlans.version} = (SELECT max(p.version) FROM service_plans p WHERE p.family_id = ${servicePlans.familyId})`
        : undefined,
  },
  sorts: {
    createdAt: { columns: [servicePlans.createdAt] },
    name: { columns: [servicePlans.name] },
    code: { columns: [servicePlans.code] },
    apr: { columns: [servicePlans.apr] },
  },
  tieBreak: servicePlans.id,
  rows: async ({ ctx, where, orderBy, limit, offset }) =>
    presentPlans(
      ctx,
      await ctx.db
        .select()
        .from(servicePlans)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    ),
  csv: csvOf<Plan>({ filename: 'service-plans.csv', noun: 'plans' }, [
    { header: 'Code', value: (p) => p.code },
    { header: 'Version', value: (p) => p.version },
    { header: 'Name', value: (p) => p.name },
    { header: 'Status', value: (p) => p.status },
    { header: 'Frequency', value: (p) => p.frequency },
    { header: 'Terms', value: (p) => p.allowedTerms.join(' ') },
    { header: 'APR %', value: (p) => p.apr },
    { header: 'Method', value: (p) => p.interestMethod },
    { header: 'Min deposit %', value: (p) => p.minDepositPercent },
    { header: 'Service fee (minor units)', value: (p) => p.serviceFee },
    { header: 'Contracts', value: (p) => p.contracts },
  ]),
});
