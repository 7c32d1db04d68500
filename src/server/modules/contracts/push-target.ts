import { eq } from 'drizzle-orm';
import { contracts, customers } from '../../../db/schema';
import type { Executor } from '../../context';
import { LIVE_STATUSES } from './portfolio';

const LIVE: readonly string[] = LIVE_STATUSES;

/** What an STK push needs of a contract: its number, status, currency and the customer's phone. */
export interface PushTarget {
  id: string;
  number: string;
  status: string;
  live: boolean;
  currency: string;
  customerPhone: string;
}

export async function pushTarget(executor: Executor, contractId: string): Promise<PushTarget | undefined> {
  const [row] = await executor
    .select({
      id: contracts.id,
      number: contracts.number,
      status: contracts.status,
      currency: contracts.currency,
      customerPhone: customers.phone,
    })
    .from(contracts)
    .innerJoin(customers, eq(customers.id, contracts.customerId))
    .where(eq(contracts.id, contractId));
  return row ? { ...row, live: LIVE.includes(row.status) } : undefined;
}
