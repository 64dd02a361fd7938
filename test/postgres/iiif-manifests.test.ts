// The same tests as test/http/iiif-manifests.test.ts, on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';
await onPostgres(() => import('../http/iiif-manifests.test.js'));
