import { MutationCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { AUTH_PATHS, SESSION_CHANGE_PATHS } from '@/contracts/auth-paths';
import { type ErrorCode, isErrorCode } from '@/contracts/errors';

/**
 * The seed's request rules (sections 7-9), in one place:
 * - every call includes credentials;
 * - a non-OK answer is an Error whose message is `status: body` (or the status text when empty);
 * - mutating calls (except POST /api/login) carry x-csrf-token, fetched once and cached in memory;
 *   if it cannot be fetched the request still goes, without it; a 403 clears the cached token.
 */

let csrfToken: string | null = null;

export function clearCsrfToken(): void {
  csrfToken = null;
}

/** The token already in memory, without fetching: for code that cannot wait (the page-unload beacon). */
export function cachedCsrfToken(): string | null {
  return csrfToken;
}

/** The cached CSRF token, fetched when missing (exported for the activity beacon, which cannot set headers). */
export async function getCsrfToken(): Promise<string | null> {
  if (csrfToken) return csrfToken;
  try {
    const response = await fetch(AUTH_PATHS.csrfToken, { credentials: 'include' });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`CSRF token fetch failed: ${response.status}`);
    }
    const data = (await response.json()) as { csrfToken?: string | null };
    if (!data.csrfToken) throw new Error('CSRF token is null or empty');
    csrfToken = data.csrfToken;
    return csrfToken;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return null;
  }
}

/**
 * A non-OK answer, parsed once. Its `message` stays the seed's `status: body` text; the parts
 * people and forms need are fields: `detail` (the server's message, or the raw text when the body
 * is not our JSON error shape), `code` (one of ERROR_CODES, else null), `fields` (field ->
 * message, from the body's `errors`) and `details` (the body's structured facts, for the codes
 * whose ERROR_CODES entry describes them, else null: read them with the contract's schema).
 */
export class ApiError extends Error {
  readonly code: ErrorCode | null;
  readonly detail: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly details: Readonly<Record<string, unknown>> | null;

  constructor(
    readonly status: number,
    text: string,
  ) {
    super(`${status}: ${text}`);
    this.name = 'ApiError';
    const body = parseErrorBody(text);
    this.code = isErrorCode(body?.code) ? body.code : null;
    this.detail = typeof body?.message === 'string' ? body.message : this.message;
    this.fields = Object.fromEntries(
      (Array.isArray(body?.errors) ? body.errors : [])
        .filter((e): e is { field: string; message: string } => typeof e?.field === 'string')
        .map((e) => [e.field, String(e.message)]),
    );
    const details = body?.details;
    this.details =
      details && typeof details === 'object' && !Array.isArray(details)
        ? (details as Record<string, unknown>)
        : null;
  }
}

type ErrorBody = {
  message?: unknown;
  code?: unknown;
  errors?: Array<{ field?: unknown; message?: unknown }>;
  details?: unknown;
};

function parseErrorBody(text: string): ErrorBody | null {
  try {
    const body: unknown = JSON.parse(text);
    return body && typeof body === 'object' ? (body as ErrorBody) : null;
  } catch {
    return null; // Not JSON (a proxy's page, plain text): people see the text as it came.
  }
}

export async function throwIfResNotOk(response: Response): Promise<void> {
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    throw new ApiError(response.status, text);
  }
}

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/** Calls after which another session is in force, so the cached CSRF token is no longer valid. */
const SESSION_CHANGES = new Set<string>(SESSION_CHANGE_PATHS);

export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  /** The call's own headers (an idempotency key); undefined ones are left out. */
  extra: Record<string, string | undefined> = {},
): Promise<Response> {
  const upper = method.toUpperCase();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name] = value;
  if (data !== undefined) headers['Content-Type'] = 'application/json';
  if (MUTATING.has(upper) && !(upper === 'POST' && url === AUTH_PATHS.login)) {
    const token = await getCsrfToken();
    if (token) headers['x-csrf-token'] = token;
  }
  const response = await fetch(url, {
    method: upper,
    headers,
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  if (response.status === 403) clearCsrfToken();
  // The server binds the token to the session and renews it at sign-in and sign-out.
  if (response.ok && SESSION_CHANGES.has(url)) clearCsrfToken();
  await throwIfResNotOk(response);
  return response;
}

/**
 * A multipart upload (KYC documents, CSV imports) under the same rules as apiRequest: CSRF token,
 * credentials, `status: body` errors. The browser sets the multipart boundary itself.
 */
export async function apiUpload<T>(url: string, form: FormData): Promise<T> {
  const token = await getCsrfToken();
  const response = await fetch(url, {
    method: 'POST',
    headers: token ? { 'x-csrf-token': token } : {},
    body: form,
    credentials: 'include',
  });
  if (response.status === 403) clearCsrfToken();
  await throwIfResNotOk(response);
  return (await response.json()) as T;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

export const getQueryFn =
  <T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T> =>
  async ({ queryKey }) => {
    const response = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (on401 === 'returnNull' && response.status === 401) {
      // Drop the unread body: API answers are no-store, so an unread one would hold the request open.
      await response.body?.cancel();
      return null as T;
    }
    await throwIfResNotOk(response);
    return (await response.json()) as T;
  };

export const queryClient = new QueryClient({
  mutationCache: new MutationCache({
    onError: (error) => {
      // The seed: a mutation error mentioning 401 is an expired session, only logged.
      if (error instanceof Error && error.message.includes('401'))
        console.warn('Session expired:', error.message);
    },
  }),
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'returnNull' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    },
    mutations: { retry: false },
  },
});

/**
 * Puts a mutation's answer in the place of a query's data. A read of that query already under way
 * (its first load, or a poll) began before the mutation wrote, so it is cancelled: landing after
 * the answer, it would put back what was there before (a chat without its reply).
 */
export async function replaceQueryData<T>(
  client: QueryClient,
  queryKey: readonly unknown[],
  data: T,
): Promise<void> {
  // Exactly this query: a prefix would also cancel (and roll back) reads of queries under it.
  await client.cancelQueries({ queryKey, exact: true });
  client.setQueryData(queryKey, data);
}

/** The API error, or null for anything else (a network failure, a bug). */
export function apiError(error: unknown): ApiError | null {
  return error instanceof ApiError ? error : null;
}

/** Readable text of any error for people: the server's message for an API error. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

/** Field messages of an API refusal, keyed by field name, for forms (empty for anything else). */
export function fieldErrors(error: unknown): Readonly<Record<string, string>> {
  return apiError(error)?.fields ?? {};
}
