// The same tests as test/http/account-names.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/account-names.test.js'));
