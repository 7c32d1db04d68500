import { describe, expect, it } from 'vitest';
import type { Plan } from '@/contracts/plans';
import { minimumDeposit } from '@/domain';
import { changedTerms, EMPTY_PLAN, type PlanFormValues, planBody, planValues } from './plan-rules';
import { exampleSchedule } from './schedule-preview';

const valid: PlanFormValues = {
  ...EMPTY_PLAN,
  code: 'phone-12m',
  name: 'Phone 12 months',
  allowedTerms: '12, 6 18',
  apr: '36',
  minDepositPercent: '10',
  minDepositAmount: '20',
  serviceFee: '1.50',
  lateFeeKind: 'flat',
  lateFeeValue: '2',
  graceDays: '3',
  lockAfterDays: '7',
  defaultAfterDays: '90',
};

describe('planBody', () => {
  it('turns the form into the API body: capital code, sorted terms, money in minor units', () => {
    expect(planBody(valid, 'USD').body).toEqual({
      code: 'PHONE-12M',
      name: 'Phone 12 months',
      eligibleCategories: [],
      eligibleModelIds: [],
      minDepositPercent: 10,
      minDepositAmount: 2000,
      frequency: 'monthly',
      allowedTerms: [6, 12, 18],
      apr: 36,
      interestMethod: 'declining',
      installmentMultiple: 0,
      serviceFee: 150,
      lateFeeKind: 'flat',
      lateFeeValue: 200,
      graceDays: 3,
      lockAfterDays: 7,
      defaultAfterDays: 90,
      allocationStrategy: 'default',
      earlySettlementDiscountPercent: 0,
    });
  });

  it('names each wrong field with the API’s wording', () => {
    const { errors } = planBody(
      {
        ...valid,
        code: 'x',
        name: ' ',
        allowedTerms: '6, 6',
        apr: 'abc',
        minDepositPercent: '100',
        serviceFee: '1.999',
        lateFeeKind: 'percent',
        lateFeeValue: '120',
        graceDays: '1.5',
        lockAfterDays: '30',
        defaultAfterDays: '10',
        earlySettlementDiscountPercent: '101',
      },
      'USD',
    );
    expect(errors).toEqual({
      code: 'Code: 2-30 capital letters, digits, - or _',
      name: 'Name is required',
      allowedTerms: 'Each term only once',
      apr: 'APR must be a number such as 36 or 29.5',
      minDepositPercent: 'Minimum deposit % must be below 100',
      serviceFee: 'Service fee can have at most 2 decimals in USD',
      lateFeeValue: 'Late fee % must be at most 100',
      graceDays: 'Grace days must be a whole number',
      defaultAfterDays: 'Default after days must not be before lock after days',
      earlySettlementDiscountPercent: 'Early-settlement discount % must be at most 100',
    });
  });

  it('refuses terms out of range and an empty term list', () => {
    expect(planBody({ ...valid, allowedTerms: '' }, 'USD').errors?.allowedTerms).toBe(
      'Give at least one allowed term',
    );
    expect(planBody({ ...valid, allowedTerms: '0, 12' }, 'USD').errors?.allowedTerms).toBe(
      '"0" is not a term: whole numbers of instalments, 1 to 3660',
    );
  });

  it('applies the organisation’s APR cap with the server’s message', () => {
    expect(planBody({ ...valid, apr: '120' }, 'USD', 100).errors?.apr).toBe(
      "APR 120% is above the organisation's cap of 100%",
    );
    expect(planBody({ ...valid, apr: '100' }, 'USD', 100).body?.apr).toBe(100);
    expect(planBody({ ...valid, apr: '' }, 'USD').errors?.apr).toBe('APR is required (0 for interest-free)');
  });

  it('ignores the late fee amount when there is no late fee, and needs one when there is', () => {
    expect(planBody({ ...valid, lateFeeKind: 'none', lateFeeValue: '5' }, 'USD').body?.lateFeeValue).toBe(0);
    expect(planBody({ ...valid, lateFeeValue: '' }, 'USD').errors?.lateFeeValue).toBe(
      'Give the late fee amount',
    );
  });

  it('reads whole-unit currencies without decimals', () => {
    expect(
      planBody({ ...valid, serviceFee: '150', minDepositAmount: '5000' }, 'UGX').body?.minDepositAmount,
    ).toBe(5000);
    expect(planBody({ ...valid, serviceFee: '1.5' }, 'UGX').errors?.serviceFee).toBe(
      'Service fee cannot have decimals in UGX',
    );
  });
});

describe('editing', () => {
  const plan = {
    ...(planBody(valid, 'USD').body as NonNullable<ReturnType<typeof planBody>['body']>),
    id: 'p1',
    familyId: 'p1',
    version: 1,
    status: 'active',
    description: null,
    currency: 'USD',
    createdAt: '2026-01-01T00:00:00.000Z',
    activatedAt: '2026-01-02T00:00:00.000Z',
    retiredAt: null,
    contracts: 4,
  } as Plan;

  it('round-trips a plan through the form', () => {
    const values = planValues(plan);
    expect(values.allowedTerms).toBe('6, 12, 18');
    expect(values.serviceFee).toBe('1.50');
    expect(values.lateFeeValue).toBe('2.00');
    expect(changedTerms(plan, planBody(values, 'USD').body as never)).toEqual({});
  });

  it('sends only what changed, never the code', () => {
    const body = planBody({ ...planValues(plan), apr: '30', allowedTerms: '18, 12, 6, 24' }, 'USD').body;
    expect(changedTerms(plan, body as never)).toEqual({ apr: 30, allowedTerms: [6, 12, 18, 24] });
  });
});

describe('example schedule', () => {
  const terms = planBody(valid, 'USD').body as NonNullable<ReturnType<typeof planBody>['body']>;

  it('takes the larger of the deposit amount and percentage', () => {
    expect(minimumDeposit(terms, 10_000)).toBe(2000);
    expect(minimumDeposit(terms, 50_000)).toBe(5000);
  });

  it('starts from the exact percentage deposit: 150.00 at 8.3% is 12.45', () => {
    const result = exampleSchedule(
      { ...terms, minDepositPercent: 8.3, minDepositAmount: 0 },
      15_000,
      12,
      '2026-01-15',
    );
    if ('error' in result) throw new Error(result.error);
    expect(result.deposit).toBe(1245);
  });

  it('builds the schedule with the engine', () => {
    const result = exampleSchedule(terms, 50_000, 12, '2026-01-15');
    if ('error' in result) throw new Error(result.error);
    expect(result.deposit).toBe(5000);
    expect(result.schedule.rows).toHaveLength(12);
    expect(result.schedule.rows[0]?.dueDate).toBe('2026-02-15');
    expect(result.schedule.totals.totalPrincipal).toBe(45_000);
    expect(result.schedule.totals.totalServiceFees).toBe(12 * 150);
  });

  it('says when the deposit covers the price', () => {
    expect(exampleSchedule(terms, 1500, 12)).toEqual({
      error: 'The minimum deposit covers the whole price: try a higher price.',
    });
  });
});
