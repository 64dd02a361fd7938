// What the operator gets around the API: the request log line, /metrics and the rate
// limit, wired once from buildApp. The exempt addresses are both the ones never limited
// and the only ones /metrics answers.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { CatalogueReader } from '../../store/store.js';
import type { Gate } from '../../work/gate.js';
import type { VersionWatch } from '../../version-watch.js';
import type { AnswerCache } from '../cache/answer-cache.js';
import { addressList, type AddressList } from './client-address.js';
import { createMetrics, registerMetricsRoute, type Metrics } from './metrics.js';
import { registerRateLimit } from './rate-limit.js';
import { registerRequestLog } from './request-log.js';

export interface OperationsDeps {
  config: Config;
  store: CatalogueReader;
  cache: AnswerCache;
  versions: VersionWatch;
  gates?: readonly Gate[];
}

export async function registerOperations(app: FastifyInstance, deps: OperationsDeps): Promise<{ metrics: Metrics | null; exempt: AddressList }> {
  const { config } = deps;
  const exempt = addressList(config.rateLimitExempt);
  const metrics = config.metrics ? createMetrics(deps) : null;
  registerRequestLog(app, config, metrics);
  await registerRateLimit(app, { config, exempt, onRejected: () => metrics?.rejected() });
  if (metrics) registerMetricsRoute(app, metrics, config, exempt);
  return { metrics, exempt };
}
