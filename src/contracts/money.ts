import { z } from 'zod';
import { MAX_MONEY_INPUT } from '../domain/money';

export { MAX_MONEY_INPUT };

/**
 * Every money input of the API: a whole number of minor units from 0 to MAX_MONEY_INPUT, with
 * messages that name the field (issue 12 §2: no input may make a derived figure overflow).
 */
export function moneyInput(label: string) {
  return z
    .number({ error: `${label} must be a number (minor units)` })
    .int(`${label} must be a whole number of minor units`)
    .min(0, `${label} must not be negative`)
    .max(MAX_MONEY_INPUT, `${label} must be at most ${MAX_MONEY_INPUT.toLocaleString('en')} minor units`);
}
