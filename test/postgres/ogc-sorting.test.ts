// The same tests as test/http/ogc-sorting.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-sorting.test.js'));
