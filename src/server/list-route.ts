import type { ListQuerySchema } from '../contracts/lists';
import type { AppInstance } from './app';
import { type ListDefinition, listCsv, listPageJson } from './list-definition';
import { sendCsv, sendJsonBytes } from './lists';
import type { Access } from './plugins/access';

/**
 * `GET path` for a list definition: its query schema, its page schema (OpenAPI), the JSON page
 * (cached where the list caches pages) or, with `format=csv`, every matching row as CSV.
 */
export function listRoute<S extends ListQuerySchema, Item>(
  app: AppInstance,
  path: string,
  definition: ListDefinition<S, Item>,
  options: { access: Access; tags: string[] },
): void {
  const { ctx } = app;
  app.get(
    path,
    {
      config: { access: options.access },
      schema: { tags: options.tags, querystring: definition.query, response: { 200: definition.page } },
    },
    async (request, reply) => {
      const viewer = request.session?.user;
      const query = request.query as Parameters<typeof listCsv<S, Item>>[2];
      if (query.format === 'csv')
        return sendCsv(reply, definition.csv.filename, await listCsv(ctx, definition, query, viewer));
      return sendJsonBytes(reply, await listPageJson(ctx, definition, query, viewer));
    },
  );
}
