// The same tests as test/http/account-throttles.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/account-throttles.test.js'));
