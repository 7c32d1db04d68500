import { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One API endpoint, described once (decision 013). The server registers its route from it
 * (`route()` in src/server/route.ts: validation, serialization, OpenAPI) and the web calls it
 * through the typed client (`api()` in src/web/lib/api.ts), which builds the URL from the same
 * path and checks the answer against the same response schema. A test holds the two sides to
 * the same list: every /api route the server registers is one of `ENDPOINTS` (src/contracts/api.ts).
 */
export interface Endpoint {
  method: HttpMethod;
  /** Fastify's path syntax: `/api/contracts/:id`. */
  path: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the call reads (an idempotency key), checked like the query. */
  headers?: z.ZodObject;
  /** The JSON body's schema, or 'multipart' for an upload (its handler reads the parts). */
  body?: z.ZodType | 'multipart';
  /**
   * The JSON answer's schema, or 'file' for an answer the browser opens by its address (a
   * document, a CSV): the web links to those with `endpointUrl()`, it does not `api()` them.
   */
  response: z.ZodType | 'file';
  /**
   * The success status when it is not 200: 201 for a creation, 202 for work accepted and queued
   * (a sign-in code, an SMS), 204 for an answer without a body.
   */
  status?: 201 | 202 | 204;
  /**
   * Another status the route answers with the same schema: 200 beside a 201 for a call that
   * creates only the first time (a deposit sent again, a device import's dry run), 503 for
   * readiness. The handler sets it itself.
   */
  alsoStatus?: 200 | 201 | 503;
}

/** Declares an endpoint, keeping its exact type (the web's client derives its input and output from it). */
export function endpoint<const E extends Endpoint>(description: E): E {
  return description;
}

/** The `:id` of a path, with the message a caller sees for a malformed one ("Not a valid plan id"). */
export function idParams(what: string) {
  return z.object({ id: z.uuid(`Not a valid ${what} id`) });
}

/** The answer of a call that has nothing else to say. */
/** An optional `Idempotency-Key`: a retry after a lost answer records the money once (decision 015). */
export const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(8).max(200).optional() });

export const okSchema = z.object({ ok: z.literal(true) });

/** An endpoint that answers JSON (what `api()` accepts). */
export type JsonEndpoint = Endpoint & { response: z.ZodType };

/**
 * What a caller gives: the path's parameters, the query, the headers, the body, each only where
 * the endpoint has one.
 */
export type EndpointInput<E extends Endpoint> = (E['params'] extends z.ZodType
  ? { params: z.input<E['params']> }
  : { params?: never }) &
  (E['query'] extends z.ZodType ? { query?: z.input<E['query']> } : { query?: never }) &
  (E['headers'] extends z.ZodType ? { headers?: z.input<E['headers']> } : { headers?: never }) &
  (E['body'] extends z.ZodType ? { body: z.input<E['body']> } : { body?: never });

/** What the endpoint answers, as its response schema reads it. */
export type EndpointOutput<E extends Endpoint> = E['response'] extends z.ZodType
  ? z.output<E['response']>
  : never;

type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

/**
 * The address of a call: `:name` segments filled from `params` (encoded), then the query's given
 * values (empty ones left out, arrays repeated). Shared by the client and by links to files.
 */
export function endpointUrl(
  endpoint: Pick<Endpoint, 'path'>,
  input: { params?: Record<string, unknown>; query?: Record<string, QueryValue> } = {},
): string {
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = input.params?.[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${endpoint.path}: the parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
