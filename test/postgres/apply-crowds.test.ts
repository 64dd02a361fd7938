// The same tests as test/apply-crowds.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../apply-crowds.test.js'));
