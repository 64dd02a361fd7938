// The same tests as test/http/ogc-kept-geopackages.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-kept-geopackages.test.js'));
