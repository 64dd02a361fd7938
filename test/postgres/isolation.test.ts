import { isolationSuite } from '../support/isolation.js';
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(async () => isolationSuite('postgres'));
