// The same test as test/http/catalogue-switch.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/catalogue-switch.test.js'));
