import { onPostgres } from '../support/on-postgres.js';
import { uploadCrowdSuite } from '../support/upload-crowd.js';

await onPostgres(async () => uploadCrowdSuite('postgres'));
