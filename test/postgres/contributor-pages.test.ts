// The same tests as test/http/contributor-pages.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/contributor-pages.test.js'));
