// The same tests as test/http/ogc-feature-columns.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-feature-columns.test.js'));
