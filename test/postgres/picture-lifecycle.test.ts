// The same tests as test/http/picture-lifecycle.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/picture-lifecycle.test.js'));
