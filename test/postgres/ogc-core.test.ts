// The same tests as test/http/ogc-core.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-core.test.js'));
