// The same tests as test/http/contribution-pictures.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/contribution-pictures.test.js'));
