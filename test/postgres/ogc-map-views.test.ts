// The same tests as test/http/ogc-map-views.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-map-views.test.js'));
