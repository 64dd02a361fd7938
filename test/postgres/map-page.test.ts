// The same tests as test/http/map-page.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/map-page.test.js'));
