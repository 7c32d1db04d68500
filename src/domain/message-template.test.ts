import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import {
  messageDate,
  messageMoney,
  renderTemplate,
  splitTemplate,
  templateVariables,
} from './message-template';

describe('message templates', () => {
  it('fills every placeholder, with or without spaces inside the braces', () => {
    expect(
      renderTemplate('Hello {{firstName}}, pay {{ amount }} by {{dueDate}}.', {
        firstName: 'Amina',
        amount: 'KES 1,250.00',
        dueDate: '2026-03-01',
      }),
    ).toBe('Hello Amina, pay KES 1,250.00 by 2026-03-01.');
  });

  it('uses a variable as often as the template names it, and numbers as text', () => {
    expect(renderTemplate('{{n}} and {{n}} again: {{zero}}', { n: 3, zero: 0 })).toBe('3 and 3 again: 0');
  });

  it('refuses a missing variable instead of leaving a blank, naming it', () => {
    expect(() => renderTemplate('Pay {{amount}} for {{contractNumber}}', { amount: '5' })).toThrowError(
      /contractNumber/,
    );
    try {
      renderTemplate('{{a}}{{b}}', {});
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('MESSAGE_VARIABLE_MISSING');
      expect((error as DomainError).message).toBe('The message template needs "a", "b"');
    }
  });

  it('takes an empty string as given (only a missing variable is an error)', () => {
    expect(renderTemplate('[{{x}}]', { x: '' })).toBe('[]');
  });

  it('renders in one pass: a value that looks like a placeholder is sent as written', () => {
    expect(renderTemplate('{{a}} {{b}}', { a: '{{b}}', b: '$1 \\1 &' })).toBe('{{b}} $1 \\1 &');
  });

  it('leaves text that is not a placeholder alone', () => {
    expect(renderTemplate('{single} {{ not valid-name }} {{}}', {})).toBe(
      '{single} {{ not valid-name }} {{}}',
    );
    expect(templateVariables('{{a}} {{ b }} {{a}}')).toEqual(['a', 'b']);
  });

  it('ignores variables the template does not use and inherited names', () => {
    expect(renderTemplate('ok', { extra: 1 })).toBe('ok');
    expect(() => renderTemplate('{{toString}}', {})).toThrowError(/toString/);
  });

  it('writes money with the currency code and its own decimals', () => {
    expect(messageMoney(125000, 'KES')).toBe('KES 1,250.00');
    expect(messageMoney(1500000, 'UGX')).toBe('UGX 1,500,000');
    expect(messageMoney(5, 'USD')).toBe('USD 0.05');
  });

  it('writes a date as customers read one, with the month as PostgreSQL abbreviates it', () => {
    expect(messageDate('2026-12-06')).toBe('6 Dec 2026');
    expect(messageDate('2024-02-29')).toBe('29 Feb 2024');
    expect(messageDate('2026-09-01')).toBe('1 Sep 2026');
  });

  it('splits a template at its placeholders so that joining the pieces and values renders it', () => {
    const template = 'Hi {{ firstName }}, {{a}}{{a}} and {single} {{}} end';
    const { pieces, names } = splitTemplate(template);
    expect(names).toEqual(['firstName', 'a', 'a']);
    const values: Record<string, string> = { firstName: 'Amina', a: '{{a}}' };
    const joined = pieces.reduce(
      (text, piece, i) => text + piece + (i < names.length ? values[names[i] as string] : ''),
      '',
    );
    expect(joined).toBe(renderTemplate(template, values));
    expect(splitTemplate('plain')).toEqual({ pieces: ['plain'], names: [] });
  });
});
