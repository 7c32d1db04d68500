import type { FastifyRequest } from 'fastify';

/**
 * What the logs may hold (issue 12 §1): a request is logged by method and path only (a query such
 * as `?q=Jane Doe` or `?phone=...` carries personal data), and an error by its type, code and
 * message with any query parameters cut off and no driver `detail` (PostgreSQL puts the offending
 * row's values there: `Key (phone)=(+254...)`). Bodies are never logged.
 */
export const logSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: pathOf(request.url),
    requestId: request.id,
  }),
  err: errorForLog,
};

export function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

type LoggedError = {
  type: string;
  message: string;
  code?: string;
  stack: string;
  cause?: LoggedError;
};

/** Drizzle words a failed statement "Failed query: <sql>\nparams: <values>": the values go. */
function withoutParams(message: string): string {
  const at = message.search(/\nparams:/);
  return at === -1 ? message : `${message.slice(0, at)}\nparams: [not logged]`;
}

export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error))
    return { type: typeof error, message: '[not an Error; not logged]', stack: '' };
  const message = withoutParams(error.message);
  const code = (error as { code?: unknown }).code;
  // The stack's first lines repeat the message: keep only the frames.
  const frames = error.stack?.split('\n').filter((line) => line.startsWith('    at ')) ?? [];
  return {
    type: error.name,
    message,
    ...(typeof code === 'string' ? { code } : {}),
    stack: [`${error.name}: ${message}`, ...frames].join('\n'),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}
