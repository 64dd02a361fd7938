// The same tests as test/http/iiif-image.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/iiif-image.test.js'));
