// The same tests as test/browser/iiif-viewer.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../browser/iiif-viewer.test.js'));
