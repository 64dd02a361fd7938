// The same tests as test/http/ogc-openapi.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-openapi.test.js'));
