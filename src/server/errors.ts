import { ERROR_CODES, type ErrorCode } from '../contracts/errors';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * The one error type of the API. Services throw it; the error handler turns it into
 * `{message, code, errors?, details?}` with its status. Anything else that escapes is a 500. The
 * code is one of `ERROR_CODES` (src/contracts/errors.ts), which says when each is used and, for
 * the few codes that have them, what their `details` hold (the records a refusal names, by id,
 * so that the web links to them without reading the message).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError(400, ERROR_CODES.BAD_REQUEST, message, errors);
export const fieldError = (field: string, message: string) =>
  new AppError(400, ERROR_CODES.VALIDATION, message, [{ field, message }]);
export const unauthorized = (
  message = 'Authentication required',
  code: ErrorCode = ERROR_CODES.UNAUTHENTICATED,
) => new AppError(401, code, message);
export const forbidden = (
  message = 'You do not have permission to do this',
  code: ErrorCode = ERROR_CODES.FORBIDDEN,
) => new AppError(403, code, message);
export const notFound = (message = 'Not found') => new AppError(404, ERROR_CODES.NOT_FOUND, message);
export const conflict = (message: string, code: ErrorCode = ERROR_CODES.CONFLICT) =>
  new AppError(409, code, message);
export const unprocessable = (message: string, code: ErrorCode = ERROR_CODES.RULE) =>
  new AppError(422, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, ERROR_CODES.RATE_LIMITED, message, undefined, {
    'retry-after': String(retryAfterSeconds),
  });
