// The same tests as test/http/ogc-extent-slices.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-extent-slices.test.js'));
