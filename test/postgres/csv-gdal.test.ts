// The same tests as test/http/csv-gdal.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/csv-gdal.test.js'));
