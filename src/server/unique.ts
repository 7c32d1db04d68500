interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
  cause?: unknown;
}

/**
 * The driver's error with SQLSTATE `code` under drizzle's wrapping (`cause`), or null for any other
 * error; PGlite and node-postgres both report `code`, `constraint` and `message`.
 */
export function driverError(error: unknown, code: string): DriverError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as DriverError;
    if (candidate.code === code) return candidate;
    current = candidate.cause;
  }
  return null;
}

/** The constraint a unique violation (SQLSTATE 23505) names, or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const found = driverError(error, '23505');
  if (!found) return null;
  if (typeof found.constraint === 'string') return found.constraint;
  const named = typeof found.message === 'string' ? /constraint "([^"]+)"/.exec(found.message) : null;
  return named?.[1] ?? '';
}
