// The same test as test/store-apply-turns.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../store-apply-turns.test.js'));
