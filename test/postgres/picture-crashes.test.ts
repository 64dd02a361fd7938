// The same tests as test/http/picture-crashes.test.ts, on PostgreSQL: the processes over one schema.
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/picture-crashes.test.js'));
