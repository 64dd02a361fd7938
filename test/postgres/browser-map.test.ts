// The tests of test/browser/map.test.ts whose page draws or finds what the store holds
// (all but its pageTests), on PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../browser/map.test.js'));
