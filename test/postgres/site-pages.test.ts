// The same tests as test/http/site-pages.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/site-pages.test.js'));
