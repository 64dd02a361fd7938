// The same tests as test/http/rate-limit.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/rate-limit.test.js'));
