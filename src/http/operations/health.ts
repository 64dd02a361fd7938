// For load balancers and orchestrators, outside the API paths: /healthz says the process
// answers; /readyz says it can read the catalogue right now (503 while the database is away,
// and from the moment a shutdown begins, so that balancers stop sending before the listener
// closes; on a replica, also while it is further behind than MAX_REPLICA_LAG_MS).
import type { FastifyInstance } from 'fastify';
import type { CatalogueReader } from '../../store/store.js';
import { ERRORS } from '../../errors.js';
import { sendJson } from '../protocol/reply.js';
import { readinessOf } from './readiness.js';

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

export function isHealthPath(url: string): boolean {
  const query = url.indexOf('?');
  return HEALTH_PATHS.has(query === -1 ? url : url.slice(0, query));
}

/** Whether the process is taking new work; server.ts clears it when a shutdown begins. */
export interface Readiness {
  stopping: boolean;
}

export function registerHealth(app: FastifyInstance, store: CatalogueReader, readiness: Readiness, maxLagMs: number | null): void {
  app.get('/healthz', async (_request, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (readiness.stopping) return sendJson(reply, 503, { status: 'stopping' });
    const [version, replication] = await Promise.all([store.catalogueVersion(), store.replication?.() ?? null]).catch(() => {
      throw ERRORS.serviceUnavailable();
    });
    const answer = readinessOf(version, replication, maxLagMs);
    return sendJson(reply, answer.status, answer.body);
  });
}
