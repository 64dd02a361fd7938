// test/http/ogc-page-bytes.test.ts on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-page-bytes.test.js'));
