import { arrayContains, eq, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type CustomerListItem, customerEndpoints } from '../../../contracts/customers';
import { customers, users } from '../../../db/schema';
import { csvOf, defineList } from '../../list-definition';
import { searchCondition, withinDays } from '../../lists';
import { piiVariant } from '../../pii';
import { phoneSearchDigits } from './phone';
import { type ListRow, seesPii, toListItem } from './present';

/**
 * Customers matching a search box text: names, account number, e-mail, national ID, or the phone
 * however it is typed (0722..., +254 722..., 722...). Other lists (contracts) search customers
 * through it.
 */
export function customerSearchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const digits = phoneSearchDigits(q);
  return digits
    ? or(searchCondition(customers.searchText, q), searchCondition(customers.searchText, digits))
    : searchCondition(customers.searchText, q);
}

const agent = alias(users, 'agent');

/**
 * /api/customers. The list is read far more often than customers change (every open list page,
 * every search box keystroke), so pages (about 20 KB each) and totals are cached per instance,
 * pages per PII view (viewers see phones and e-mails masked).
 */
export const customerList = defineList({
  name: 'customer',
  endpoint: customerEndpoints.list,
  // The assigned agent's name comes from users.
  shows: [customers, users],
  search: customerSearchCondition,
  filters: {
    kycStatus: (status) => eq(customers.kycStatus, status),
    region: (region) => eq(customers.region, region),
    tag: (tag) => arrayContains(customers.tags, [tag]),
    assignedAgentId: (id) => eq(customers.assignedAgentId, id),
    riskGrade: (grade) => eq(customers.riskGrade, grade),
    createdFrom: (from, env) => withinDays(customers.createdAt, from, undefined, env.timeZone),
    createdTo: (to, env) => withinDays(customers.createdAt, undefined, to, env.timeZone),
  },
  sorts: {
    createdAt: { columns: [customers.createdAt] },
    name: { columns: [customers.lastName, customers.firstName] },
    accountNumber: { columns: [customers.accountNumber], unique: true },
    riskScore: { columns: [customers.riskScore], nullsLast: true },
  },
  tieBreak: customers.id,
  variant: piiVariant,
  rows: async ({ ctx, where, orderBy, limit, offset, viewer }) => {
    const rows = await ctx.db
      .select({
        id: customers.id,
        accountNumber: customers.accountNumber,
        firstName: customers.firstName,
        lastName: customers.lastName,
        otherNames: customers.otherNames,
        phone: customers.phone,
        email: customers.email,
        nationalId: customers.nationalId,
        region: customers.region,
        kycStatus: customers.kycStatus,
        riskScore: customers.riskScore,
        riskGrade: customers.riskGrade,
        createdAt: customers.createdAt,
        agentId: agent.id,
        agentFirstName: agent.firstName,
        agentLastName: agent.lastName,
      })
      .from(customers)
      .leftJoin(agent, eq(agent.id, customers.assignedAgentId))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    const showPii = seesPii(viewer);
    return (rows as ListRow[]).map((row) => toListItem(row, showPii));
  },
  csv: csvOf<CustomerListItem>({ filename: 'customers.csv', noun: 'customers' }, [
    { header: 'Account number', value: (c) => c.accountNumber },
    { header: 'First name', value: (c) => c.firstName },
    { header: 'Last name', value: (c) => c.lastName },
    { header: 'Phone', value: (c) => c.phone },
    { header: 'Email', value: (c) => c.email },
    { header: 'National ID', value: (c) => c.nationalId },
    { header: 'Region', value: (c) => c.region },
    { header: 'KYC status', value: (c) => c.kycStatus },
    { header: 'Risk score', value: (c) => c.riskScore },
    { header: 'Risk grade', value: (c) => c.riskGrade },
    { header: 'Assigned agent', value: (c) => c.assignedAgent?.name },
    { header: 'Created at', value: (c) => c.createdAt },
  ]),
  cache: { totalsTtlMs: 10_000, pages: { ttlMs: 10_000, maxEntries: 1_000 } },
});
