// For load balancers and orchestrators, outside the API paths: /healthz says the process
// answers; /readyz says it can read the catalogue right now (503 while the database is away).
import type { FastifyInstance } from 'fastify';
import type { CatalogueReader } from '../store/store.js';
import { serviceUnavailable } from './errors.js';
import { sendJson } from './reply.js';

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

export function isHealthPath(url: string): boolean {
  const query = url.indexOf('?');
  return HEALTH_PATHS.has(query === -1 ? url : url.slice(0, query));
}

export function registerHealth(app: FastifyInstance, store: CatalogueReader): void {
  app.get('/healthz', async (_request, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const version = await store.catalogueVersion().catch(() => {
      throw serviceUnavailable();
    });
    return sendJson(reply, 200, { status: 'ready', catalogue_version: version });
  });
}
