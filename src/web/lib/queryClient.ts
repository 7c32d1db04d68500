import { MutationCache, QueryClient, type QueryFunction } from '@tanstack/react-query';

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
    const response = await fetch('/api/csrf-token', { credentials: 'include' });
    if (!response.ok) throw new Error(`CSRF token fetch failed: ${response.status}`);
    const data = (await response.json()) as { csrfToken?: string | null };
    if (!data.csrfToken) throw new Error('CSRF token is null or empty');
    csrfToken = data.csrfToken;
    return csrfToken;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return null;
  }
}

export async function throwIfResNotOk(response: Response): Promise<void> {
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    throw new Error(`${response.status}: ${text}`);
  }
}

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const upper = method.toUpperCase();
  const headers: Record<string, string> = {};
  if (data !== undefined) headers['Content-Type'] = 'application/json';
  if (MUTATING.has(upper) && !(upper === 'POST' && url === '/api/login')) {
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

/** apiRequest and parse the JSON answer. */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const response = await apiRequest(method, url, data);
  return (await response.json()) as T;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

export const getQueryFn =
  <T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T> =>
  async ({ queryKey }) => {
    const response = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (on401 === 'returnNull' && response.status === 401) return null as T;
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
 * Readable text of an API error for people: the server's `message` when the body is our JSON
 * error shape, else the raw `status: body` text.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return error.message;
  try {
    const body = JSON.parse(match[2] ?? '') as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: show the text as it came.
  }
  return error.message;
}

/** Field messages of a 400 answer, keyed by field name, for forms. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return {};
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  try {
    const body = JSON.parse(match?.[1] ?? '') as { errors?: Array<{ field: string; message: string }> };
    return Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));
  } catch {
    return {};
  }
}

export function errorStatus(error: unknown): number | null {
  const match = error instanceof Error ? /^(\d{3}):/.exec(error.message) : null;
  return match ? Number(match[1]) : null;
}

/** The `code` of our JSON error body (EMAIL_TAKEN, WRONG_PASSWORD...), or null. */
export function errorCode(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  try {
    const body = JSON.parse(match?.[1] ?? '') as { code?: unknown };
    return typeof body.code === 'string' ? body.code : null;
  } catch {
    return null;
  }
}
