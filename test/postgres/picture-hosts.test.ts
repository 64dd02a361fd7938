// The same tests as test/http/picture-hosts.test.ts, on PostgreSQL: two servers over one schema.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/picture-hosts.test.js'));
