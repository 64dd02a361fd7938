// The same walk as test/browser/contribute.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../browser/contribute.test.js'));
