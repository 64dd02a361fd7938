// The same tests as test/http/account-management.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/account-management.test.js'));
