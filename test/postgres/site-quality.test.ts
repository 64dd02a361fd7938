// The same tests as test/browser/site-quality.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../browser/site-quality.test.js'));
