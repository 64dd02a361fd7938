// The same tests as test/http/contributions.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/contributions.test.js'));
