// The same tests as test/http/ogc-downloads.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-downloads.test.js'));
