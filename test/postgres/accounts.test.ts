// The same tests as test/http/accounts.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/accounts.test.js'));
