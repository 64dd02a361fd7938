// The same tests as test/http/query-nul.test.ts, on PostgreSQL: the same exact answers as on
// SQLite.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/query-nul.test.js'));
