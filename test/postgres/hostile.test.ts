// The same tests as test/http/hostile.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/hostile.test.js'));
