import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Endpoint } from '../contracts/endpoint';

type Schema<T> = T extends z.ZodType ? z.output<T> : unknown;

/** The request a handler receives: params, query, headers and body as the endpoint's schemas parse them. */
export type RouteRequest<E extends Endpoint> = FastifyRequest<{
  Params: Schema<E['params']>;
  Querystring: Schema<E['query']>;
  Headers: Schema<E['headers']>;
  Body: Schema<E['body']>;
}>;

/** What a handler answers: the body the response schema checks, or the reply it sent itself (files). */
type RouteAnswer<E extends Endpoint> = E['response'] extends z.ZodType
  ? z.input<E['response']> | FastifyReply
  : FastifyReply;

export interface RouteOptions {
  /** Who may call it (src/server/plugins/access.ts): every /api route declares this. */
  access: NonNullable<FastifyContextConfig['access']>;
  /** OpenAPI grouping. */
  tags: readonly string[];
  csrf?: FastifyContextConfig['csrf'];
  rateLimit?: { max: number; timeWindow: string };
  /** OpenAPI text, where the schema alone does not say how to call it (uploads). */
  description?: string;
  /** A body limit other than the app's 1 MB (a CSV sent as JSON). */
  bodyLimit?: number;
  /** Runs before validation: turns a multipart form into the body the schema checks. */
  preValidation?: (request: FastifyRequest) => Promise<void>;
}

// Any Fastify instance: the app, or a scope that adds a parser (multipart uploads).
// biome-ignore lint/suspicious/noExplicitAny: the instance's generics do not matter to registration
type AnyInstance = FastifyInstance<any, any, any, any, any>;

/**
 * Registers an endpoint described in src/contracts (decision 013): its method, path and schemas
 * come from the description, the server adds who may call it and what it does. The success status
 * is the description's (201 for a creation), so handlers return the body only.
 */
export function route<E extends Endpoint>(
  app: AnyInstance,
  endpoint: E,
  options: RouteOptions,
  handler: (request: RouteRequest<E>, reply: FastifyReply) => RouteAnswer<E> | Promise<RouteAnswer<E>>,
): void {
  const { response, status = 200 } = endpoint;
  const multipart = endpoint.body === 'multipart';
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.preValidation ? { preValidation: options.preValidation } : {}),
    config: {
      access: options.access,
      ...(options.csrf !== undefined ? { csrf: options.csrf } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    },
    schema: {
      tags: [...options.tags],
      ...(options.description ? { description: options.description } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.headers ? { headers: endpoint.headers } : {}),
      ...(endpoint.body && !multipart ? { body: endpoint.body } : {}),
      ...(multipart ? { consumes: ['multipart/form-data'] } : {}),
      ...(response !== 'file'
        ? {
            response: {
              [status]: response,
              ...(endpoint.alsoStatus ? { [endpoint.alsoStatus]: response } : {}),
            },
          }
        : {}),
    },
    handler: (request, reply) => {
      if (status !== 200) reply.status(status);
      return handler(request as RouteRequest<E>, reply);
    },
  });
}
