// The same tests as test/http/robustness.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/robustness.test.js'));
