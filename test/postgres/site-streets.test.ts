// The same tests as test/http/site-streets.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/site-streets.test.js'));
