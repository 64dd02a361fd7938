// The same tests as test/http/metrics.test.ts, on PostgreSQL (with the pool gauges).
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/metrics.test.js'));
