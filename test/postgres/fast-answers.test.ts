// The same tests as test/http/fast-answers.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/fast-answers.test.js'));
