// The same tests as test/http/openapi.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/openapi.test.js'));
