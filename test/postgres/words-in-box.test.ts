// The same tests as test/http/words-in-box.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/words-in-box.test.js'));
