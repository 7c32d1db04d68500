import { describe, expect, it } from 'vitest';
import { parseCustomerText, parseDate } from './intent';

const TODAY = '2026-11-28';

describe('the customer-service intent parser', () => {
  it.each([
    ['STOP', 'opt_out'],
    ['unsubscribe.', 'opt_out'],
    ['Start', 'opt_in'],
    ['please stop sending me these', 'unknown'],
    ['blance?', 'balance'],
    ['ballance', 'balance'],
    ['paymnet history', 'history'],
    ['tokn', 'token'],
    ['I need some stuff', 'unknown'],
    ['I nearly paid', 'unknown'],
    ['how much to settle everything', 'payoff'],
    ['how much is my next instalment', 'next_due'],
    ['I want to talk to someone about my balance', 'handoff'],
    ['Habari yako', 'greeting'],
    ['deni langu ni ngapi', 'balance'],
  ])('reads "%s" as %s', (text, intent) => {
    expect(parseCustomerText(text, TODAY).intent).toBe(intent);
  });

  it('reads a payoff date in the usual forms, the next one when no year is given', () => {
    expect(parseDate('on 15 Dec', TODAY)).toBe('2026-12-15');
    expect(parseDate('15th of december 2027', TODAY)).toBe('2027-12-15');
    expect(parseDate('Jan 3', TODAY)).toBe('2027-01-03');
    expect(parseDate('on 1/2', TODAY)).toBe('2027-02-01');
    expect(parseDate('2026-12-31', TODAY)).toBe('2026-12-31');
    expect(parseDate('tomorrow', TODAY)).toBe('2026-11-29');
    expect(parseDate('in 2 weeks', TODAY)).toBe('2026-12-12');
    expect(parseDate('end of the month', TODAY)).toBe('2026-11-30');
    expect(parseDate('on 31 Feb', TODAY)).toBeUndefined();
    expect(parseCustomerText('if I pay everything on 15 Dec', TODAY)).toEqual({
      intent: 'payoff',
      date: '2026-12-15',
      contractNumbers: [],
    });
  });

  it('collects the contract numbers a message names, however written', () => {
    expect(parseCustomerText('balance of ct 12 and CT-000034', TODAY).contractNumbers).toEqual([
      'CT-000012',
      'CT-000034',
    ]);
  });
});
