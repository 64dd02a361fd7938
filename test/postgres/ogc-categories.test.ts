// The same tests as test/http/ogc-categories.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-categories.test.js'));
