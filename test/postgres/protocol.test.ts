// The same tests as test/http/protocol.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/protocol.test.js'));
