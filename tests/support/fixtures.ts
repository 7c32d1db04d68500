import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import {
  contractFigures,
  contractInstallments,
  contracts,
  customers,
  deviceModels,
  devices,
  servicePlans,
} from '../../src/db/schema';
import { addDays, buildSchedule, type Frequency, type InterestMethod } from '../../src/domain';
import { businessToday } from '../../src/server/business-date';
import type { AppContext } from '../../src/server/context';
import { OPENPAYGO_KEY_PURPOSE } from '../../src/server/modules/devices/service';
import { organisation } from '../../src/server/organisation';

let counter = 0;

export interface ContractFixture {
  principal: number;
  apr: number;
  frequency: Frequency;
  term: number;
  method?: InterestMethod;
  startDate: string;
  serviceFee?: number;
  /** Instalments (from the first) marked fully paid. */
  paid?: number;
  /** Days past due on the business date (the contract's arrears began that many days before it). */
  dpd?: number;
  customerName?: [string, string];
  /** The plan terms copied onto the contract (late fee, grace, lock-after, default-after). */
  terms?: Record<string, unknown>;
  /** How the unit is controlled (default none). */
  controlKind?: 'openpaygo' | 'lock_api' | 'none';
}

/**
 * Inserts an active contract with its customer, device and plan straight into the database, its
 * schedule built by the finance engine. For tests of readers of contracts (assistant, KPIs);
 * the contracts module's own tests go through its API.
 */
export async function insertActiveContract(
  ctx: AppContext,
  fixture: ContractFixture,
): Promise<{ id: string; number: string }> {
  counter += 1;
  const n = `${Date.now().toString(36)}${counter}`;
  const method = fixture.method ?? 'declining';
  const schedule = buildSchedule({
    principal: fixture.principal,
    apr: fixture.apr,
    frequency: fixture.frequency,
    term: fixture.term,
    method,
    startDate: fixture.startDate,
    serviceFeePerPeriod: fixture.serviceFee ?? 0,
  });
  const ids = {
    customer: randomUUID(),
    model: randomUUID(),
    device: randomUUID(),
    plan: randomUUID(),
    contract: randomUUID(),
  };
  const [first, last] = fixture.customerName ?? ['Test', `Customer ${counter}`];
  const [next] = await queryRows<{ seq: number }>(
    ctx.db,
    sql`SELECT nextval('contract_number_seq')::int AS seq`,
  );
  const number = `CT-${String(next?.seq ?? counter).padStart(6, '0')}`;
  await ctx.db.transaction(async (tx) => {
    await tx.insert(customers).values({
      id: ids.customer,
      accountNumber: `C-T${n}`,
      firstName: first,
      lastName: last,
      phone: `+25470${String(counter).padStart(7, '0')}`,
    });
    await tx.insert(deviceModels).values({
      id: ids.model,
      make: 'Test',
      model: `Phone ${n}`,
      category: 'smartphone',
      retailPrice: fixture.principal,
      controlKind: 'none',
    });
    await tx.insert(devices).values({
      id: ids.device,
      serialNumber: `SN-${n}`,
      modelId: ids.model,
      status: 'assigned',
      controlKind: fixture.controlKind ?? 'none',
      lockState: 'unlocked',
      // An OpenPAYGO unit's settings, its key sealed as the devices area seals it (a payment
      // issues it a token).
      ...(fixture.controlKind === 'openpaygo'
        ? {
            openpaygoSecret: ctx.keyring.encrypt(OPENPAYGO_KEY_PURPOSE, 'a29ab82edc5fbbc41ec9530f6dac86b1'),
            openpaygoStartingCode: '123456789',
            openpaygoCount: 1,
          }
        : {}),
    });
    await tx.insert(servicePlans).values({
      id: ids.plan,
      familyId: ids.plan,
      version: 1,
      code: `T-${n}`,
      name: 'Test plan',
      status: 'active',
      frequency: fixture.frequency,
      allowedTerms: [fixture.term],
      apr: String(fixture.apr),
      interestMethod: method,
    });
    const paid = fixture.paid ?? 0;
    const remaining = schedule.rows.slice(paid);
    // The arrears as of the date the given days past due are for: the oldest unpaid due date plus them.
    const asOf = fixture.dpd && remaining[0] ? addDays(remaining[0].dueDate, fixture.dpd) : null;
    const overdue = asOf ? remaining.filter((row) => row.dueDate < asOf) : [];
    await tx.insert(contracts).values({
      id: ids.contract,
      number,
      customerId: ids.customer,
      deviceId: ids.device,
      planId: ids.plan,
      terms: fixture.terms ?? {},
      currency: 'USD',
      cashPrice: fixture.principal,
      deposit: 0,
      principal: fixture.principal,
      apr: String(fixture.apr),
      frequency: fixture.frequency,
      term: fixture.term,
      interestMethod: method,
      serviceFee: fixture.serviceFee ?? 0,
      installment: schedule.totals.installment,
      totalInterest: schedule.totals.totalInterest,
      totalPayable: schedule.totals.totalPayable,
      startDate: fixture.startDate,
      firstDueDate: schedule.rows[0]?.dueDate ?? fixture.startDate,
      lastDueDate: schedule.rows.at(-1)?.dueDate ?? fixture.startDate,
      status: 'active',
      activatedAt: new Date(),
      outstandingPrincipal: remaining.reduce((sum, row) => sum + row.principal, 0),
    });
    await tx
      .update(contractFigures)
      .set({
        // The given days past due are read on the business date (decision 054).
        arrearsSince: fixture.dpd
          ? addDays(businessToday(ctx, await organisation(ctx, tx)), -fixture.dpd)
          : null,
        outstandingTotal: remaining.reduce((sum, row) => sum + row.total, 0),
        overdueTotal: overdue.reduce((sum, row) => sum + row.total, 0),
      })
      .where(eq(contractFigures.contractId, ids.contract));
    await tx.insert(contractInstallments).values(
      schedule.rows.map((row, index) => ({
        contractId: ids.contract,
        scheduleVersion: 1,
        n: row.n,
        dueDate: row.dueDate,
        principalDue: row.principal,
        interestDue: row.interest,
        feeDue: row.serviceFee,
        principalPaid: index < paid ? row.principal : 0,
        interestPaid: index < paid ? row.interest : 0,
        feePaid: index < paid ? row.serviceFee : 0,
        settledAt: index < paid ? row.dueDate : null,
      })),
    );
  });
  return { id: ids.contract, number };
}
