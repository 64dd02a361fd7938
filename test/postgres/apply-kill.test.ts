// The same tests as test/apply-kill.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../apply-kill.test.js'));
