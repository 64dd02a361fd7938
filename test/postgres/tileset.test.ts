// The same tests as test/http/tileset.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/tileset.test.js'));
