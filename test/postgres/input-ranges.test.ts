// The same tests as test/http/input-ranges.test.ts, on PostgreSQL: the same exact answers as
// on SQLite, so both stores answer alike.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/input-ranges.test.js'));
