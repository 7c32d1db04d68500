import { inArray, sql } from 'drizzle-orm';
import type { KycDocumentType } from '../../contracts/customers';
import { queryRows } from '../../db/client';
import { users } from '../../db/schema';
import type { Actor } from '../audit';
import { businessDateOf } from '../business-date';
import type { AppContext } from '../context';
import { businessDate, startOfDayIn } from '../dates';
import { recordDeposit } from '../modules/contracts/deposit';
import { activate, approve, createDraft, submitForApproval } from '../modules/contracts/service';
import { reviewDocument, uploadDocument } from '../modules/customers/kyc';
import { createCustomer } from '../modules/customers/service';
import { createDeviceModel } from '../modules/devices/models';
import { createDevice } from '../modules/devices/service';
import { issueTokenInTransaction } from '../modules/devices/tokens';
import { settleHistory } from '../modules/notifications/service';
import { activatePlan, createPlan } from '../modules/plans/service';
import { organisation, updateOrganisation } from '../organisation';
import { withTransaction } from '../transaction';
import { type DemoModel, type DemoPlan, demoCatalogue, FIRST_NAMES, LAST_NAMES, REGIONS } from './catalogue';
import { DEMO_JPEG, DEMO_PDF, DEMO_PNG } from './files';
import { type DemoStaff, liveDemoHistory } from './history';
import {
  type PlannedDemoPayment,
  planContractPayments,
  profileDeck,
  seedPendingReversal,
  seedSuspense,
} from './payments';
import { createRandom, type Random } from './random';

/**
 * The demo portfolio behind DEMO_DATA (issue 5): an organisation, a device catalogue, service
 * plans, hundreds of customers with KYC, units in stock and contracts over the past year, all
 * created through the same services the API uses (so the audit trail, ledger and device history
 * are as real as a lender's) and from a fixed seed, so every start on an empty database builds
 * the same book; then its year is lived day by day, payments and closes of business in date order
 * (history.ts).
 */
export interface PortfolioSize {
  customers: number;
  devices: number;
  contracts: number;
}

export const DEMO_PORTFOLIO: PortfolioSize = { customers: 300, devices: 420, contracts: 250 };
const SEED = 20_261_122;
/** The demo organisation's time zone: its book's days are Nairobi's. */
const DEMO_TIME_ZONE = 'Africa/Nairobi';

export interface PortfolioSummary {
  customers: number;
  devices: number;
  contracts: number;
  activeContracts: number;
}

interface Staff extends DemoStaff {
  admin: Actor;
}

/** The demo users (seedDemoUsers) acting in their roles; null when they are not there. */
async function demoStaff(ctx: AppContext): Promise<Staff | null> {
  const wanted = [
    'agent@demo.example.com',
    'collector@demo.example.com',
    'manager@demo.example.com',
    'admin@demo.example.com',
    'finance@demo.example.com',
  ];
  const rows = await ctx.db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.email, wanted));
  const actor = (email: string): Actor | null => {
    const row = rows.find((candidate) => candidate.email === email);
    return row
      ? {
          id: row.id,
          label: `${row.email} (demo data)`,
          name: `${row.firstName} ${row.lastName}`,
          ip: null,
          requestId: null,
        }
      : null;
  };
  const [agent, collector, manager, admin, finance] = wanted.map(actor);
  return agent && collector && manager && admin && finance
    ? { agent, collector, manager, admin, finance }
    : null;
}

async function isEmpty(ctx: AppContext): Promise<boolean> {
  const [row] = await queryRows<{ n: string }>(ctx.db, sql`SELECT count(*) AS n FROM customers`);
  return Number(row?.n ?? 0) === 0;
}

/** The context with the clock set to a moment of the demo's past, so dates look lived-in. */
function at(ctx: AppContext, when: Date): AppContext {
  return { ...ctx, clock: { now: () => when } };
}

/** A Luhn-valid 15-digit IMEI from 14 digits. */
export function withLuhn(body14: string): string {
  let sum = 0;
  for (let i = 0; i < body14.length; i += 1) {
    let digit = Number(body14[body14.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${body14}${(10 - (sum % 10)) % 10}`;
}

/**
 * Builds the portfolio unless the database already has customers (or the demo users are missing).
 * `shouldStop` is checked between steps so a shutdown is not held up.
 */
export async function seedDemoPortfolio(
  ctx: AppContext,
  options: { size?: PortfolioSize; shouldStop?: () => boolean; log?: (message: string) => void } = {},
): Promise<PortfolioSummary | null> {
  const size = options.size ?? DEMO_PORTFOLIO;
  const stop = options.shouldStop ?? (() => false);
  if (!(await isEmpty(ctx))) return null;
  const staff = await demoStaff(ctx);
  if (!staff) return null;
  const random = createRandom(SEED);
  // The start of the build's day in the book's time zone, not the hour it was built at: the
  // approvals, payments and visits hours after a contract's start crossed midnight for a book
  // built late in the evening, which then aged differently (built after 22:00 in Nairobi, it
  // opened with no defaulted contract left).
  const now = new Date(startOfDayIn(businessDate(ctx.clock.now(), DEMO_TIME_ZONE), DEMO_TIME_ZONE));
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

  const current = await organisation(ctx, ctx.db);
  const { updatedAt: _updatedAt, ...settings } = current;
  await withTransaction(ctx, (tx) =>
    updateOrganisation(tx, staff.admin, {
      ...settings,
      name: 'Sunrise Device Finance',
      currency: 'KES',
      country: 'KE',
      timeZone: DEMO_TIME_ZONE,
      aprCap: settings.aprCap ?? 60,
      // Risk scorecard income bands for Kenya: KES 5,000, 15,000 and 40,000 a month.
      incomeBands: [500_000, 1_500_000, 4_000_000],
    }),
  );

  const org = await organisation(ctx, ctx.db);
  const catalogue = demoCatalogue();
  const models = new Map<string, { id: string; spec: DemoModel }>();
  for (const spec of catalogue.models) {
    const model = await withTransaction(at(ctx, daysAgo(400)), (tx) =>
      createDeviceModel(tx, staff.manager, spec.body),
    );
    models.set(spec.key, { id: model.id, spec });
  }
  const plans: Array<{ id: string; spec: DemoPlan }> = [];
  for (const spec of catalogue.plans) {
    const plan = await withTransaction(at(ctx, daysAgo(390)), (tx) =>
      createPlan(tx, staff.manager, spec.terms),
    );
    await withTransaction(at(ctx, daysAgo(389)), (tx) => activatePlan(tx, staff.admin, plan.id));
    plans.push({ id: plan.id, spec });
  }

  const customers = await seedCustomers(ctx, staff, random, size.customers, daysAgo, stop);
  if (stop()) return null;
  const stock = await seedDevices(ctx, staff, random, [...models.values()], size.devices, daysAgo, stop);
  if (stop()) return null;

  let made = 0;
  let active = 0;
  const activated: string[] = [];
  // The first activation's business date: where the lived history begins.
  let first: string | null = null;
  const verified = customers.filter((customer) => customer.verified);
  for (let i = 0; i < size.contracts && !stop(); i += 1) {
    const customer = verified[i % verified.length];
    const plan = random.pick(plans);
    const unit = customer && takeUnit(stock, plan.spec, random);
    if (!customer || !unit) continue;
    // Spread over the last year, older contracts first, so schedules are at every stage.
    const started = daysAgo(Math.round(360 - (i * 350) / size.contracts + random.int(0, 6)));
    const term = random.pick(plan.spec.terms.allowedTerms);
    const depositPercent = Math.max(plan.spec.terms.minDepositPercent, random.pick([10, 15, 20, 25]));
    const deposit = Math.round((unit.price * depositPercent) / 100 / 100) * 100;
    const draftCtx = at(ctx, started);
    const { id } = (
      await withTransaction(draftCtx, (tx) =>
        createDraft(tx, staff.agent, {
          customerId: customer.id,
          deviceId: unit.id,
          planId: plan.id,
          deposit,
          term,
        }),
      )
    ).contract;
    made += 1;
    const fate = random.next();
    if (i >= size.contracts - 8 && fate < 0.5) continue; // a few recent drafts still being prepared
    await withTransaction(draftCtx, (tx) => submitForApproval(tx, staff.agent, id));
    if (i >= size.contracts - 8) continue; // and a few waiting for a checker
    const approvedAt = new Date(started.getTime() + random.int(1, 5) * 3_600_000);
    await withTransaction(at(ctx, approvedAt), (tx) => approve(tx, staff.manager, id));
    await withTransaction(at(ctx, approvedAt), (tx) =>
      recordDeposit(tx, staff.agent, id, {
        amount: deposit,
        channel: random.pick(['mobile_money', 'mobile_money', 'cash']),
        reference: `DEMO-DEP-${String(i + 1).padStart(5, '0')}`,
        receivedAt: approvedAt.toISOString(),
      }),
    );
    await withTransaction(at(ctx, approvedAt), (tx) =>
      activate(tx, staff.manager, id, async (tx, deviceId, days, contractId) => {
        await issueTokenInTransaction(tx, deviceId, { type: 'ADD_TIME', days }, staff.manager.id, contractId);
      }),
    );
    active += 1;
    activated.push(id);
    const on = businessDateOf(approvedAt, org);
    if (first === null || on < first) first = on;
  }
  // Each customer's payments planned, then the year lived day by day: payments, the collector's
  // work and the close of business in date order (history.ts).
  const planned: PlannedDemoPayment[] = [];
  const profiles = profileDeck(createRandom(SEED + 1), activated.length);
  for (const [k, id] of activated.entries()) {
    const own = createRandom(SEED + 1_000 + k);
    planned.push(...(await planContractPayments(ctx, id, profiles[k] ?? 'on_time', own, now)));
  }
  let payments = 0;
  let lastPaymentId: string | null = null;
  if (first) {
    const lived = await liveDemoHistory(ctx, staff, planned, random, { from: first, stop });
    if (!lived) return null;
    ({ payments, lastPaymentId } = lived);
  }
  if (lastPaymentId) await seedPendingReversal(ctx, staff.finance, lastPaymentId);
  await seedSuspense(ctx, random, now);
  // A year of work built in minutes left every notice unread. Staff who keep up have read last
  // week's news and cleared last month's; what still waits for them (a contract to approve) stays.
  await withTransaction(ctx, (tx) => settleHistory(tx, { readBefore: daysAgo(7), clearBefore: daysAgo(30) }));
  options.log?.(
    `demo portfolio: ${customers.length} customers, ${stock.total} units, ${made} contracts, ${payments} payments`,
  );
  return { customers: customers.length, devices: stock.total, contracts: made, activeContracts: active };
}

async function seedCustomers(
  ctx: AppContext,
  staff: Staff,
  random: Random,
  count: number,
  daysAgo: (days: number) => Date,
  stop: () => boolean,
): Promise<Array<{ id: string; verified: boolean }>> {
  const made: Array<{ id: string; verified: boolean }> = [];
  for (let i = 0; i < count && !stop(); i += 1) {
    const joined = daysAgo(Math.round(380 - (i * 370) / count));
    const gender = random.pick(['female', 'male'] as const);
    const firstName = random.pick(FIRST_NAMES[gender]);
    const lastName = random.pick(LAST_NAMES);
    const birthYear = random.int(1962, 2004);
    const income = random.pick([15_000, 22_000, 28_000, 35_000, 45_000, 60_000, 85_000, 120_000]);
    const customer = await withTransaction(at(ctx, joined), (tx) =>
      createCustomer(tx, staff.agent, null, {
        firstName,
        lastName,
        phone: `+2547${String(10_000_000 + ((i * 7_919_113) % 89_999_999)).padStart(8, '0')}`,
        email: random.next() < 0.4 ? `${firstName}.${lastName}${i}@example.com`.toLowerCase() : null,
        nationalId: String(20_000_000 + i * 9_973),
        dateOfBirth: `${birthYear}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`,
        gender,
        region: random.pick(REGIONS),
        address: `${random.int(1, 240)} ${random.pick(['Moi', 'Kenyatta', 'Biashara', 'Market', 'Station'])} Road`,
        occupation: random.pick([
          'Trader',
          'Teacher',
          'Farmer',
          'Boda boda rider',
          'Tailor',
          'Nurse',
          'Mechanic',
        ]),
        employment: random.pick(['salaried', 'business_owner', 'self_employed', 'casual'] as const),
        monthlyIncome: income * 100,
        // Two funds finance the book (investor codes may be scoped to one); some came by referral.
        // Chosen by position, not by `random`, so the rest of the book stays the same.
        tags: [i % 3 === 2 ? 'fund-b' : 'fund-a', ...(i % 10 === 4 ? ['referral'] : [])],
        consents: {
          sms: true,
          dataProcessing: true,
          whatsapp: random.next() < 0.6,
          marketing: random.next() < 0.3,
        },
      }),
    );
    // Most customers are verified; some wait for review; a few were refused a document.
    const outcome = random.next();
    const documents: Array<[KycDocumentType, Buffer]> = [
      ['id_front', DEMO_JPEG],
      ['selfie', DEMO_PNG],
    ];
    if (random.next() < 0.3) documents.push(['proof_of_address', DEMO_PDF]);
    let verified = outcome < 0.85;
    for (const [type, data] of documents) {
      if (outcome > 0.97) break; // not started
      const uploaded = await withTransaction(at(ctx, joined), (tx) =>
        uploadDocument(tx, staff.agent, customer.id, {
          type,
          fileName: `${type}.${data === DEMO_PDF ? 'pdf' : data === DEMO_PNG ? 'png' : 'jpg'}`,
          data,
        }),
      );
      if (outcome >= 0.92) continue; // pending review
      const rejected = outcome >= 0.85 && type === 'selfie';
      await withTransaction(at(ctx, joined), (tx) =>
        reviewDocument(tx, staff.manager, customer.id, uploaded.document.id, {
          decision: rejected ? 'reject' : 'verify',
          ...(rejected ? { reason: 'The face is not clearly visible; please retake the photo' } : {}),
        }),
      );
    }
    if (outcome >= 0.85) verified = false;
    made.push({ id: customer.id, verified });
  }
  return made;
}

interface Stock {
  total: number;
  /** Units in stock by model key. */
  byModel: Map<string, Array<{ id: string; price: number }>>;
  models: Map<string, DemoModel>;
}

async function seedDevices(
  ctx: AppContext,
  staff: Staff,
  random: Random,
  models: Array<{ id: string; spec: DemoModel }>,
  count: number,
  daysAgo: (days: number) => Date,
  stop: () => boolean,
): Promise<Stock> {
  const stock: Stock = { total: 0, byModel: new Map(), models: new Map() };
  const totalWeight = models.reduce((sum, model) => sum + model.spec.weight, 0);
  for (let i = 0; i < count && !stop(); i += 1) {
    const model = weighted(models, random.next() * totalWeight);
    if (!model) break;
    const { spec } = model;
    const serial = `${spec.serialPrefix}-${String(100_000 + i * 37).padStart(7, '0')}`;
    const unit = await withTransaction(at(ctx, daysAgo(370 - Math.floor(i / 2))), (tx) =>
      createDevice(tx, staff.manager, {
        serialNumber: serial,
        modelId: model.id,
        imei:
          spec.body.category === 'smartphone'
            ? withLuhn(`35${String(400_000_000_000 + i * 7_919).slice(0, 12)}`)
            : null,
        ...(spec.body.controlKind === 'openpaygo'
          ? { control: { kind: 'openpaygo' as const, secretKey: random.hex(32) } }
          : {}),
      }),
    );
    const list = stock.byModel.get(spec.key) ?? [];
    list.push({ id: unit.id, price: spec.body.retailPrice });
    stock.byModel.set(spec.key, list);
    stock.models.set(spec.key, spec);
    stock.total += 1;
  }
  return stock;
}

/** The model whose share of the cumulative weights holds `point`. */
function weighted<T extends { spec: DemoModel }>(models: readonly T[], point: number): T | undefined {
  let rest = point;
  for (const model of models) {
    rest -= model.spec.weight;
    if (rest < 0) return model;
  }
  return models.at(-1);
}

/** Takes an in-stock unit the plan finances (its categories), or null when none is left. */
function takeUnit(stock: Stock, plan: DemoPlan, random: Random): { id: string; price: number } | null {
  const keys = [...stock.byModel.keys()].filter((key) => {
    const model = stock.models.get(key);
    return (
      model && plan.terms.eligibleCategories.includes(model.body.category) && stock.byModel.get(key)?.length
    );
  });
  if (!keys.length) return null;
  const list = stock.byModel.get(random.pick(keys));
  return list?.shift() ?? null;
}
