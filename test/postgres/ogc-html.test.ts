// The same tests as test/http/ogc-html.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/ogc-html.test.js'));
