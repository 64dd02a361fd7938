// The same tests as test/http/peer-urls.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/peer-urls.test.js'));
