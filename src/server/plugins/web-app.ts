import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';

/**
 * Serves the built React app: hashed assets cached for a year (with precompressed .br/.gz
 * variants), and index.html for every other GET outside /api so client-side routes survive a
 * reload (history fallback). Unknown /api paths get a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const built = existsSync(path.join(webRoot, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn(`Web app not built (${webRoot} has no index.html): run "npm run build"`);
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (
      url === '/api' ||
      url.startsWith('/api/') ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      throw notFound(`No such endpoint: ${request.method} ${url}`);
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run "npm run build" and restart.');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
