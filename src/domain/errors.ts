/**
 * The finance engine's one error type. `kind` tells the caller how to report it:
 * - `validation`: the input is malformed or out of range (the server answers 400 with `field`);
 * - `rule`: the input is well-formed but the business rule refuses it (the server answers 422).
 * Money outside the safe integer range throws a plain `RangeError` instead (see money.ts).
 */
export type DomainErrorKind = 'validation' | 'rule';

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly code: string;
  readonly field: string | undefined;

  constructor(kind: DomainErrorKind, code: string, message: string, field?: string) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.code = code;
    this.field = field;
  }
}

export function invalid(field: string, message: string, code = 'INVALID_INPUT'): DomainError {
  return new DomainError('validation', code, message, field);
}

export function refused(code: string, message: string, field?: string): DomainError {
  return new DomainError('rule', code, message, field);
}

/** Throws a validation error unless `value` is an integer in [min, max]. Returns the value. */
export function requireInteger(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalid(field, `${field} must be a whole number`);
  }
  if (value < min || value > max) {
    throw invalid(field, `${field} must be between ${min} and ${max}`);
  }
  return value;
}
