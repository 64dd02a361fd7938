// The same tests as test/http/edit-records.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/edit-records.test.js'));
