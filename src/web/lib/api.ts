import { z } from 'zod';
import {
  type EndpointInput,
  type EndpointOutput,
  endpointUrl,
  type JsonEndpoint,
} from '@/contracts/endpoint';
import { ApiError, apiRequest, apiUpload } from './queryClient';

export { endpointUrl };

type Args<E extends JsonEndpoint> =
  object extends EndpointInput<E> ? [input?: EndpointInput<E>] : [input: EndpointInput<E>];

/**
 * Calls an endpoint described in src/contracts (decision 013): the address comes from its path and
 * the given params and query, the body is sent as JSON with the given headers (an idempotency key)
 * under the seed's request rules (apiRequest: CSRF header, credentials, `status: body` errors), and
 * the answer is checked against the endpoint's response schema, so a server that answers something
 * else fails loudly here instead of drawing wrong figures.
 */
export async function api<E extends JsonEndpoint>(
  endpoint: E,
  ...[input]: Args<E>
): Promise<EndpointOutput<E>> {
  const given = (input ?? {}) as {
    params?: Record<string, unknown>;
    query?: Record<string, never>;
    headers?: Record<string, string | undefined>;
    body?: unknown;
  };
  const response = await apiRequest(endpoint.method, endpointUrl(endpoint, given), given.body, given.headers);
  // 204 No Content has no body to parse: the endpoint's schema reads it as null.
  return checked(endpoint, response.status === 204 ? null : await response.json());
}

/**
 * `api()` under the seed's rule for the signed-in app's queries (the default query function's):
 * a 401, the session gone, answers null instead of failing.
 */
export async function apiOrNull<E extends JsonEndpoint>(
  endpoint: E,
  ...input: Args<E>
): Promise<EndpointOutput<E> | null> {
  try {
    return await api(endpoint, ...input);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Uploads a form to a multipart endpoint (KYC documents, imports), its answer checked the same way. */
export async function apiUploadTo<E extends JsonEndpoint & { body: 'multipart' }>(
  endpoint: E,
  input: EndpointInput<E>,
  form: FormData,
): Promise<EndpointOutput<E>> {
  const url = endpointUrl(endpoint, input as { params?: Record<string, unknown> });
  return checked(endpoint, await apiUpload<unknown>(url, form));
}

/** An answer that does not match the schema is a defect between server and web: refused loudly. */
export class UnexpectedAnswerError extends Error {
  constructor(endpoint: JsonEndpoint, error: z.ZodError) {
    super(`Unexpected answer from ${endpoint.method} ${endpoint.path}: ${z.prettifyError(error)}`);
    this.name = 'UnexpectedAnswerError';
  }
}

/** The answer read with the endpoint's response schema, or UnexpectedAnswerError. */
export function checked<E extends JsonEndpoint>(endpoint: E, body: unknown): EndpointOutput<E> {
  const result = endpoint.response.safeParse(body);
  if (!result.success) throw new UnexpectedAnswerError(endpoint, result.error);
  return result.data as EndpointOutput<E>;
}
