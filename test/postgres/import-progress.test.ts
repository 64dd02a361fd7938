import { importProgressSuite } from '../support/import-progress.js';
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(async () => importProgressSuite());
