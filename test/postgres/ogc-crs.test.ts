// The same tests as test/http/ogc-crs.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-crs.test.js'));
