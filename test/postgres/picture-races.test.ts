// The same tests as test/http/picture-races.test.ts, on PostgreSQL: two processes over one schema.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/picture-races.test.js'));
