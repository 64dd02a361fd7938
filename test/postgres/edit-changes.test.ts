// The same tests as test/http/edit-changes.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/edit-changes.test.js'));
