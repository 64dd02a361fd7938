// The same tests as test/cli-footprints.test.ts, importing into PostgreSQL.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../cli-footprints.test.js'));
