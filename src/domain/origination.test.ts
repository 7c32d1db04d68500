import { describe, expect, it } from 'vitest';
import { minimumDeposit, planIneligibility } from './origination';

describe('minimumDeposit', () => {
  it('is exact where a float rounds up: 150.00 at 8.3% is 12.45', () => {
    expect(minimumDeposit({ minDepositAmount: 0, minDepositPercent: 8.3 }, 15_000)).toBe(1245);
    expect(minimumDeposit({ minDepositAmount: 0, minDepositPercent: '8.3' }, 15_000)).toBe(1245);
  });

  it('takes the larger of the amount and the percentage', () => {
    expect(minimumDeposit({ minDepositAmount: 2000, minDepositPercent: 10 }, 10_000)).toBe(2000);
    expect(minimumDeposit({ minDepositAmount: 2000, minDepositPercent: 10 }, 50_000)).toBe(5000);
  });
});

describe('planIneligibility', () => {
  const plan = { code: 'P1', eligibleCategories: ['phone'], eligibleModelIds: ['m1'] };
  it('names the category or the model a plan does not finance', () => {
    expect(planIneligibility(plan, { category: 'solar_home', modelId: 'm1', modelName: 'A B' })).toBe(
      'Plan P1 does not finance solar home devices',
    );
    expect(planIneligibility(plan, { category: 'phone', modelId: 'm2', modelName: 'Tecno Spark' })).toBe(
      'Plan P1 does not finance the Tecno Spark',
    );
    expect(planIneligibility(plan, { category: 'phone', modelId: 'm1', modelName: 'A B' })).toBeNull();
  });
});
