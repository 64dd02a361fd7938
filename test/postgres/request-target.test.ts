// The same tests as test/http/request-target.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/request-target.test.js'));
