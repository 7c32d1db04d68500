import { describe, expect, it } from 'vitest';
import { buildSchedule } from '@/domain';
import { parseMoneyInput } from '@/web/lib/money';
import {
  type CalculatorInputs,
  defaultInputs,
  inputsFromSearch,
  searchFromInputs,
  termDuration,
} from './inputs';
import { evaluate, impliedApr, quoteFigures } from './model';

const CASE_A: CalculatorInputs = {
  price: '1500.00',
  deposit: '250.00',
  frequency: 'monthly',
  term: '4',
  apr: '15',
  method: 'declining',
  multiple: '1.00',
  fee: '',
  start: '2026-01-15',
};

describe('calculator model', () => {
  it('reproduces reference case A (Fineract) through the engine', () => {
    const { schedule, errors } = evaluate(CASE_A, 'USD');
    expect(errors).toEqual({});
    expect(schedule?.rows.map((r) => r.total)).toEqual([32200, 32200, 32200, 32333]);
    expect(schedule?.rows.map((r) => r.interest)).toEqual([1562, 1180, 792, 399]);
  });

  it('gives exactly what buildSchedule gives, fees and flat interest included', () => {
    const inputs = {
      ...CASE_A,
      method: 'flat' as const,
      fee: '2.50',
      multiple: '',
      frequency: 'weekly' as const,
    };
    const { schedule } = evaluate({ ...inputs, term: '26' }, 'USD');
    const expected = buildSchedule({
      principal: 125000,
      apr: '15',
      frequency: 'weekly',
      term: 26,
      method: 'flat',
      startDate: '2026-01-15',
      installmentMultiple: 0,
      serviceFeePerPeriod: 250,
    });
    expect(schedule).toEqual(expected);
  });

  it('names the field of every problem', () => {
    const messages = (patch: Partial<CalculatorInputs>, currency = 'USD') =>
      evaluate({ ...CASE_A, ...patch }, currency).errors;
    expect(messages({ price: '' }).price).toBe('Enter the cash price');
    expect(messages({ price: 'abc' }).price).toBe('Cash price must be an amount such as 1500.00');
    expect(messages({ price: '0' }).price).toBe('Cash price must be more than 0');
    expect(messages({ price: '12.345' }).price).toBe('Cash price can have at most 2 decimals in USD');
    expect(messages({ price: '1500.5' }, 'UGX').price).toBe('Cash price cannot have decimals in UGX');
    expect(messages({ deposit: '1500' }).deposit).toMatch(
      /^The deposit must be less than the cash price: nothing/,
    );
    expect(messages({ deposit: '2000' }).deposit).toBe('The deposit must be less than the cash price');
    expect(messages({ deposit: '-5' }).deposit).toBe('Deposit cannot be negative');
    expect(messages({ term: '' }).term).toBe('Enter the number of instalments');
    expect(messages({ term: '2.5' }).term).toBe('Term must be a whole number of instalments');
    expect(messages({ term: '0' }).term).toBe('Term must be from 1 to 3,660 instalments');
    expect(messages({ term: '3661' }).term).toBe('Term must be from 1 to 3,660 instalments');
    expect(messages({ apr: 'x' }).apr).toBe('APR must be a number of percent, such as 15 or 19.99');
    expect(messages({ apr: '1000.01' }).apr).toBe('APR must be from 0 to 1,000%');
    expect(messages({ multiple: '1.001' }).multiple).toBe(
      'Instalment multiple can have at most 2 decimals in USD',
    );
    expect(messages({ fee: '-1' }).fee).toBe('Service fee cannot be negative');
    expect(messages({ start: '2026-02-30' }).start).toBe('Enter the start date');
    // The engine's refusal, on the field that causes it.
    expect(messages({ multiple: '400.00' }).multiple).toMatch(
      /^The instalment is smaller than the instalment multiple/,
    );
    expect(messages({ multiple: '300.00', apr: '900' }).multiple).toMatch(
      /would not cover the first period's interest/,
    );
  });

  it('marks only empty required fields as missing', () => {
    const { missing } = evaluate(defaultInputs('2026-01-15'), 'USD');
    expect(missing).toEqual(['price', 'apr']);
  });

  it('accepts thousands separators and trailing dots as people type them', () => {
    expect(parseMoneyInput('1,500.00', 'USD', 'Price')).toEqual({ value: 150000 });
    expect(parseMoneyInput('1500.', 'USD', 'Price')).toEqual({ value: 150000 });
    expect(parseMoneyInput('1,50', 'USD', 'Price')).toEqual({
      error: 'Price must be an amount such as 1500.00',
    });
    expect(evaluate({ ...CASE_A, apr: '15.' }, 'USD').schedule?.rows[0]?.interest).toBe(1562);
  });

  it('round-trips the inputs through the query string', () => {
    const search = searchFromInputs(CASE_A);
    expect(search).toBe(
      'price=1500.00&deposit=250.00&frequency=monthly&term=4&apr=15&method=declining&multiple=1.00&start=2026-01-15',
    );
    expect(inputsFromSearch(search, '2030-01-01')).toEqual(CASE_A);
    // Unknown values fall back to the defaults.
    expect(inputsFromSearch('frequency=yearly&method=magic', '2030-01-01')).toEqual(
      defaultInputs('2030-01-01'),
    );
  });

  it('discloses the rate implied by all charges', () => {
    const figures = quoteFigures(evaluate({ ...CASE_A, multiple: '', term: '12' }, 'USD'));
    expect(figures?.aprWithFees).toBeCloseTo(15, 1);
    const flat = quoteFigures(evaluate({ ...CASE_A, multiple: '', term: '12', method: 'flat' }, 'USD'));
    expect(flat?.aprWithFees).toBeGreaterThan(26);
    expect(flat?.costOfCredit).toBe((flat?.totalInterest ?? 0) + (flat?.totalServiceFees ?? 0));
    expect(impliedApr(1000, [1000], 'monthly')).toBe(0);
  });

  it('describes how long a term lasts', () => {
    expect(termDuration('monthly', 4)).toBe('4 months');
    expect(termDuration('monthly', 18)).toBe('1 year 6 months');
    expect(termDuration('monthly', 24)).toBe('2 years');
    expect(termDuration('weekly', 4)).toBe('4 weeks');
    expect(termDuration('weekly', 52)).toBe('about 12 months');
    expect(termDuration('daily', 10)).toBe('10 days');
    expect(termDuration('daily', 30)).toBe('about 4 weeks');
    expect(termDuration('daily', 3660)).toBe('about 10 years');
  });
});
