import { describe, expect, it } from 'vitest';
import { parseQuery } from './intent';

describe('assistant intent parser', () => {
  it.each([
    [
      'Increase daily payment to $0.50',
      { kind: 'installment', amount: 50, frequency: 'daily', direction: 'increase' },
      0.95,
    ],
    ['20% service discount for 30 days', { kind: 'service_discount', percent: 20, days: 30 }, 0.95],
    ['Adjust APR to 19%', { kind: 'apr', apr: 19 }, 0.95],
    [
      'set the weekly instalment to 1,250.75',
      { kind: 'installment', amount: 125075, frequency: 'weekly' },
      0.95,
    ],
    ['what if the interest rate was 24.5 percent', { kind: 'apr', apr: 24.5 }, 0.95],
    ['APR 30', { kind: 'apr', apr: 30 }, 0.8],
    [
      '15 percent discount on service fees for 2 weeks',
      { kind: 'service_discount', percent: 15, days: 14 },
      0.95,
    ],
    ['extend the term by 3 months', { kind: 'term', mode: 'by', count: 3, unit: 'months' }, 0.9],
    ['change term to 40 instalments', { kind: 'term', mode: 'to', count: 40, unit: 'installments' }, 0.9],
    ['shorten the term by 10 payments', { kind: 'term', mode: 'by', count: -10, unit: 'installments' }, 0.9],
    ['payment holiday of 2 weeks', { kind: 'payment_holiday', count: 2, unit: 'weeks' }, 0.9],
    ['skip 3 payments', { kind: 'payment_holiday', count: 3, unit: 'installments' }, 0.9],
    ['What is PAR30?', { kind: 'par', days: 30 }, 0.95],
    ['par 7', { kind: 'par', days: 7 }, 0.95],
    ['portfolio at risk', { kind: 'par', days: 30 }, 0.85],
    ['What is our collection rate this month?', { kind: 'collection_rate' }, 0.9],
    ['How many contracts are overdue?', { kind: 'overdue_count' }, 0.9],
    ['show me the top risks', { kind: 'top_risks' }, 0.9],
  ])('%s', (query, intent, confidence) => {
    const parsed = parseQuery(query, 'USD');
    expect(parsed.intent).toEqual(intent);
    expect(parsed.confidence).toBe(confidence);
  });

  it('reads amounts in the organisation’s currency digits', () => {
    expect(parseQuery('increase daily payment to 50', 'UGX').intent).toEqual({
      kind: 'installment',
      amount: 50,
      frequency: 'daily',
      direction: 'increase',
    });
    expect(parseQuery('increase daily payment to KES 50.5', 'KES').intent).toMatchObject({ amount: 5050 });
    expect(parseQuery('lower the weekly payment to Ksh 400', 'KES').intent).toEqual({
      kind: 'installment',
      amount: 40000,
      frequency: 'weekly',
      direction: 'decrease',
    });
    // "$" is any dollar: an Australian book reads "$5" as its own currency.
    expect(parseQuery('set the daily payment to $5', 'AUD').intent).toMatchObject({ amount: 500 });
  });

  it('never rereads an amount in another currency as the organisation’s', () => {
    expect(parseQuery('Increase daily payment to $0.50', 'KES')).toMatchObject({
      intent: { kind: 'foreign_currency', amount: '$0.50', currencyName: 'dollars ($)', frequency: 'daily' },
      confidence: 0.9,
      assumptions: [],
    });
    expect(parseQuery('set weekly payment to 5 USD', 'KES').intent).toMatchObject({
      kind: 'foreign_currency',
      amount: '5 USD',
      currencyName: 'USD',
    });
    expect(parseQuery('raise the payment to €2', 'USD').intent).toMatchObject({ currencyName: 'euros (€)' });
    expect(parseQuery('increase payment to UGX 5000', 'KES').intent).toMatchObject({ currencyName: 'UGX' });
    // Words that look like codes are not currencies unless typed as codes.
    expect(parseQuery('try 50 as the daily payment', 'KES').intent).toMatchObject({
      kind: 'installment',
      amount: 5000,
    });
  });

  it('scopes a question to a named contract and asks for one where needed', () => {
    expect(parseQuery('payoff for ct-000123 on 2026-12-31', 'USD')).toMatchObject({
      intent: { kind: 'payoff', date: '2026-12-31' },
      contractNumber: 'CT-000123',
      confidence: 0.95,
    });
    expect(parseQuery('Adjust APR to 19% for CT 42', 'USD')).toMatchObject({
      contractNumber: 'CT-000042',
      intent: { kind: 'apr', apr: 19 },
    });
    // A customer account number (C-000123) is not a contract.
    expect(parseQuery('payoff for C-000123', 'USD').contractNumber).toBeUndefined();
    const noNumber = parseQuery('what is the payoff amount?', 'USD');
    expect(noNumber.confidence).toBeLessThan(0.5);
    expect(noNumber.assumptions[0]).toMatch(/No contract number/);
  });

  it('states its assumptions and lowers its confidence when the question is vague', () => {
    const discount = parseQuery('10% discount', 'USD');
    expect(discount.intent).toEqual({ kind: 'service_discount', percent: 10, days: 30 });
    expect(discount.confidence).toBe(0.7);
    expect(discount.assumptions).toEqual(['For 30 days (no period was given)']);
    const noFrequency = parseQuery('increase payment to $2', 'USD');
    expect(noFrequency.confidence).toBe(0.75);
  });

  it('answers unknown questions with a low confidence', () => {
    for (const query of ['hello', 'what is the weather like', 'discount', 'change the payment', '']) {
      const parsed = parseQuery(query, 'USD');
      expect(parsed.intent, query).toEqual({ kind: 'unknown' });
      expect(parsed.confidence, query).toBeLessThanOrEqual(0.3);
    }
  });
});
