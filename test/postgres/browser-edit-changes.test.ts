// The same walk as test/browser/edit-changes.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../browser/edit-changes.test.js'));
