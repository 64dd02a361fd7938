// The same tests as test/http/text-query-cost.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/text-query-cost.test.js'));
