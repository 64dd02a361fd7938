// The same tests as test/http/readme-examples.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/readme-examples.test.js'));
