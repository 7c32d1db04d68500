import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiError } from '../../contracts/auth';
import { ERROR_CODES, type ErrorCode, isErrorCode } from '../../contracts/errors';
import { DomainError } from '../../domain';
import { AppError, type FieldError } from '../errors';

const PLACE_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

type ValidationIssue = {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
};

function fieldErrors(issues: ValidationIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params.keys)) {
      return (issue.params.keys as string[]).map((key) => ({
        field: field ? `${field}.${key}` : key,
        message: `Unknown field "${key}"`,
      }));
    }
    return [{ field: field || '(root)', message: issue.message ?? 'Invalid value' }];
  });
}

/** Fastify's own client errors, with messages a person can act on. */
const FRAMEWORK_ERRORS: Partial<Record<ErrorCode, { status: number; message: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type; send application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Request body is empty; send a JSON object' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body' },
};

/** PostgreSQL's character_not_in_repertoire and untranslatable_character, however wrapped. */
const ENCODING_SQLSTATES = new Set(['22021', '22P05']);

function databaseEncodingError(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && ENCODING_SQLSTATES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * One error shape for every failure: `{message, code, errors?, details?, requestId?}`. Bad input is a 4xx
 * with a message per field; only a fault of ours is a 500, logged with the request id it carries.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status: number;
    let body: ApiError;
    if (error instanceof DomainError) {
      // The finance engine refused the input: malformed (400, with its field) or against a rule (422).
      status = error.kind === 'validation' ? 400 : 422;
      body = {
        message: error.message,
        code: error.code,
        ...(error.field ? { errors: [{ field: error.field, message: error.message }] } : {}),
      };
    } else if (error instanceof AppError) {
      status = error.statusCode;
      body = {
        message: error.message,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.details ? { details: error.details } : {}),
      };
      if (error.headers) void reply.headers(error.headers);
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrors(error.validation as unknown as ValidationIssue[]);
      const place = PLACE_NAMES[error.validationContext ?? 'body'] ?? 'request';
      status = 400;
      body = {
        message: `Invalid ${place}: ${errors.map((e) => (e.field === '(root)' ? e.message : `${e.field}: ${e.message}`)).join('; ')}`,
        code: ERROR_CODES.VALIDATION,
        errors,
      };
    } else if (isErrorCode(error.code) && FRAMEWORK_ERRORS[error.code]) {
      const known = FRAMEWORK_ERRORS[error.code] as { status: number; message: string };
      status = known.status;
      body = { message: known.message, code: error.code };
    } else if (databaseEncodingError(error)) {
      // Text the shared rule let through but the database cannot store (src/contracts/text.ts).
      status = 400;
      body = { message: 'The request holds text the database cannot store', code: ERROR_CODES.BAD_REQUEST };
    } else if (
      !isResponseSerializationError(error) &&
      error.statusCode &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      // Other client errors of fastify and its plugins: a route's rate limit (429, no code of its
      // own) is RATE_LIMITED like the sign-in throttle; the rest are BAD_REQUEST.
      status = error.statusCode;
      const code = isErrorCode(error.code)
        ? error.code
        : status === 429
          ? ERROR_CODES.RATE_LIMITED
          : ERROR_CODES.BAD_REQUEST;
      body = { message: error.message, code };
    } else {
      status = 500;
      request.log.error({ err: error }, 'unhandled error');
      body = { message: 'Internal server error', code: ERROR_CODES.INTERNAL, requestId: String(request.id) };
    }
    return reply.status(status).send(body);
  });
}
