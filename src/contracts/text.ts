/**
 * The one rule for text the API accepts (issue 12 §1, decision 014): no NUL character and no
 * unpaired surrogate. PostgreSQL cannot store either in a text column (it fails the statement),
 * JSON allows both as escapes, and no person types them, so they are refused at the door with a
 * 400 naming the field, for every string of every route's path, query and body.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this rule looks for
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be accepted, or null when it can. */
export function textProblem(value: string): string | null {
  const found = UNSAFE_TEXT.exec(value);
  if (!found) return null;
  return found[0] === '\u0000'
    ? 'Must not contain a NUL character (\\u0000)'
    : 'Must be valid Unicode text (it holds an unpaired surrogate)';
}

/** The first unsafe string in a parsed value (keys included), with its dotted path. */
export function findTextProblem(
  value: unknown,
  path = '',
  depth = 0,
): { field: string; message: string } | null {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { field: path || '(root)', message } : null;
  }
  // JSON bodies are at most 1 MB; this bound only stops a pathological nesting from recursing far.
  if (!value || typeof value !== 'object' || depth > 64) return null;
  for (const [key, item] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    const keyMessage = textProblem(key);
    if (keyMessage) return { field, message: `Field name: ${keyMessage.toLowerCase()}` };
    const found = findTextProblem(item, field, depth + 1);
    if (found) return found;
  }
  return null;
}
