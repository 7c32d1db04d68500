/**
 * The constraint a unique violation (SQLSTATE 23505) names, or null for any other error. Drizzle
 * wraps driver errors (`cause`); PGlite and node-postgres both report `code` and `constraint`.
 */
export function uniqueViolation(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (candidate.code === '23505') {
      if (typeof candidate.constraint === 'string') return candidate.constraint;
      const named =
        typeof candidate.message === 'string' ? /constraint "([^"]+)"/.exec(candidate.message) : null;
      return named?.[1] ?? '';
    }
    current = candidate.cause;
  }
  return null;
}
