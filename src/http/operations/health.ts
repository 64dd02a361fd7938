// For load balancers and orchestrators, outside the API paths: /healthz says the process
// answers; /readyz says it can read the catalogue right now (503 while the database is away,
// and from the moment a shutdown begins, so that balancers stop sending before the listener
// closes).
import type { FastifyInstance } from 'fastify';
import type { CatalogueReader } from '../../store/store.js';
import { ERRORS } from '../../errors.js';
import { sendJson } from '../protocol/reply.js';

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

export function isHealthPath(url: string): boolean {
  const query = url.indexOf('?');
  return HEALTH_PATHS.has(query === -1 ? url : url.slice(0, query));
}

/** Whether the process is taking new work; server.ts clears it when a shutdown begins. */
export interface Readiness {
  stopping: boolean;
}

export function registerHealth(app: FastifyInstance, store: CatalogueReader, readiness: Readiness): void {
  app.get('/healthz', async (_request, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (readiness.stopping) return sendJson(reply, 503, { status: 'stopping' });
    const version = await store.catalogueVersion().catch(() => {
      throw ERRORS.serviceUnavailable();
    });
    return sendJson(reply, 200, { status: 'ready', catalogue_version: version });
  });
}
