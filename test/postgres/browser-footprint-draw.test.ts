// test/browser/footprint-draw.test.ts on PostgreSQL: the same map over the tiles and
// /map/config.json read from that store.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../browser/footprint-draw.test.js'));
