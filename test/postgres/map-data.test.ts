// The same tests as test/http/map-data.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/map-data.test.js'));
