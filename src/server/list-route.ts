import type { ListQuerySchema } from '../contracts/lists';
import type { AppInstance } from './app';
import { type ListDefinition, listCsv, listPageJson } from './list-definition';
import { sendCsv, sendJsonBytes } from './lists';
import { type RouteOptions, route } from './route';

/**
 * A list definition's endpoint: its query schema, its page schema (OpenAPI), the JSON page
 * (cached where the list caches pages) or, with `format=csv`, every matching row as CSV.
 */
export function listRoute<S extends ListQuerySchema, Item>(
  app: AppInstance,
  definition: ListDefinition<S, Item>,
  options: Pick<RouteOptions, 'access' | 'tags'>,
): void {
  const { ctx } = app;
  route(app, definition.endpoint, options, async (request, reply) => {
    const viewer = request.session?.user;
    const query = request.query as Parameters<typeof listCsv<S, Item>>[2];
    if (query.format === 'csv')
      return sendCsv(reply, definition.csv.filename, await listCsv(ctx, definition, query, viewer));
    return sendJsonBytes(reply, await listPageJson(ctx, definition, query, viewer));
  });
}
