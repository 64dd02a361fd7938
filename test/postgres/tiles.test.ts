// The same tests as test/http/tiles.test.ts, on PostgreSQL (tiles encoded by PostGIS).
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/tiles.test.js'));
