// The same tests as test/http/ogc-filter.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-filter.test.js'));
