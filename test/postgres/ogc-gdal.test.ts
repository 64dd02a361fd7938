// The same tests as test/http/ogc-gdal.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-gdal.test.js'));
