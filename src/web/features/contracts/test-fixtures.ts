import type { User } from '@/contracts/auth';
import type { Contract, ContractPreview } from '@/contracts/contracts';
import type { Plan } from '@/contracts/plans';
import type { Role } from '@/contracts/roles';

/** Test data for the contract pages: Fineract reference case A (1,500.00, 250.00 down, 15 % over 4 months). */

export const IDS = {
  contract: '11111111-1111-4111-8111-111111111111',
  customer: '22222222-2222-4222-8222-222222222222',
  device: '33333333-3333-4333-8333-333333333333',
  model: '44444444-4444-4444-8444-444444444444',
  plan: '55555555-5555-4555-8555-555555555555',
  maker: '66666666-6666-4666-8666-666666666666',
  checker: '77777777-7777-4777-8777-777777777777',
};

export function staff(role: Role, id: string = IDS.checker, isOwner = false): User {
  return {
    id,
    email: `${role}@example.com`,
    firstName: role,
    lastName: 'User',
    role,
    isOwner,
  } as User;
}

const SCHEDULE = [
  { n: 1, dueDate: '2026-02-15', principal: 30638, interest: 1562, total: 32200, balance: 94362 },
  { n: 2, dueDate: '2026-03-15', principal: 31020, interest: 1180, total: 32200, balance: 63342 },
  { n: 3, dueDate: '2026-04-15', principal: 31408, interest: 792, total: 32200, balance: 31934 },
  { n: 4, dueDate: '2026-05-15', principal: 31934, interest: 399, total: 32333, balance: 0 },
].map((row) => ({ ...row, serviceFee: 0, penalty: 0, paid: 0, status: 'upcoming' as const }));

const FIGURES = {
  currency: 'USD',
  cashPrice: 150000,
  deposit: 25000,
  principal: 125000,
  apr: 15,
  frequency: 'monthly' as const,
  term: 4,
  interestMethod: 'declining' as const,
  installmentMultiple: 100,
  serviceFee: 0,
  installment: 32200,
  regularPayment: 32200,
  totalInterest: 3933,
  totalServiceFees: 0,
  totalPayable: 128933,
  startDate: '2026-01-15',
  firstDueDate: '2026-02-15',
  lastDueDate: '2026-05-15',
};

export function preview(overrides: Partial<ContractPreview> = {}): ContractPreview {
  return { ...FIGURES, schedule: SCHEDULE, minimumDeposit: 15000, ...overrides };
}

export function contract(overrides: Partial<Contract> = {}): Contract {
  return {
    ...FIGURES,
    id: IDS.contract,
    number: 'CT-000042',
    status: 'draft',
    customer: {
      id: IDS.customer,
      accountNumber: 'C-000007',
      name: 'Amina Wanjiru',
      phone: '+254712345678',
      kycStatus: 'verified',
    },
    device: {
      id: IDS.device,
      serialNumber: 'SN-0001',
      imei: null,
      model: 'Tecno Spark 20',
      controlKind: 'openpaygo',
      status: 'reserved',
      lockState: 'unknown',
    },
    plan: { id: IDS.plan, code: 'PHONE-M', name: 'Monthly phone plan', version: 1 },
    schedule: SCHEDULE,
    asOf: '2026-01-15',
    dpd: 0,
    bucket: 'current',
    paidThroughDate: '2026-01-15',
    nextDue: null,
    outstanding: { principal: 125000, interest: 3933, fees: 0, penalties: 0, total: 128933 },
    totalPaid: 0,
    creditBalance: 0,
    depositReceived: 0,
    activationBlockers: [
      'Submit the contract for approval',
      'A second person must approve the contract',
      'The deposit of $250.00 is not fully received ($0.00 so far)',
    ],
    createdAt: '2026-01-15T08:00:00.000Z',
    createdBy: { id: IDS.maker, name: 'Mary Maker' },
    submittedAt: null,
    submittedBy: null,
    approvedAt: null,
    approvedBy: null,
    activatedAt: null,
    activatedBy: null,
    cancelledAt: null,
    cancelReason: null,
    payments: [],
    events: [
      {
        id: 'e1',
        type: 'created',
        message: 'Draft created',
        at: '2026-01-15T08:00:00.000Z',
        actor: { id: IDS.maker, name: 'Mary Maker' },
      },
    ],
    tokens: [],
    ...overrides,
  };
}

/** Pending approval, submitted by the maker. */
export function pending(overrides: Partial<Contract> = {}): Contract {
  return contract({
    status: 'pending_approval',
    submittedAt: '2026-01-15T09:00:00.000Z',
    submittedBy: { id: IDS.maker, name: 'Mary Maker' },
    activationBlockers: [
      'A second person must approve the contract',
      'The deposit of $250.00 is not fully received ($0.00 so far)',
    ],
    ...overrides,
  });
}

/** Approved by the checker, deposit still missing. */
export function approved(overrides: Partial<Contract> = {}): Contract {
  return pending({
    approvedAt: '2026-01-15T10:00:00.000Z',
    approvedBy: { id: IDS.checker, name: 'Chris Checker' },
    activationBlockers: ['The deposit of $250.00 is not fully received ($0.00 so far)'],
    ...overrides,
  });
}

export function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: IDS.plan,
    familyId: IDS.plan,
    version: 1,
    status: 'active',
    code: 'PHONE-M',
    name: 'Monthly phone plan',
    description: null,
    eligibleCategories: [],
    eligibleModelIds: [],
    minDepositPercent: 10,
    minDepositAmount: 0,
    frequency: 'monthly',
    allowedTerms: [4, 6, 12],
    apr: 15,
    interestMethod: 'declining',
    installmentMultiple: 100,
    serviceFee: 0,
    lateFeeKind: 'none',
    lateFeeValue: 0,
    graceDays: 3,
    lockAfterDays: 7,
    defaultAfterDays: 90,
    allocationStrategy: 'default',
    earlySettlementDiscountPercent: 0,
    currency: 'USD',
    createdAt: '2026-01-01T00:00:00.000Z',
    activatedAt: '2026-01-01T00:00:00.000Z',
    retiredAt: null,
    contracts: 0,
    ...overrides,
  };
}
