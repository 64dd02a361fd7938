// The same tests as test/browser/map.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../browser/map.test.js'));
