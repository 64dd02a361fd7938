import { onPostgres } from '../support/on-postgres.js';
import { uploadSiegeSuite } from '../support/upload-siege.js';

await onPostgres(async () => uploadSiegeSuite('postgres'));
