import { mapViewIndexSuite } from '../support/map-view-index.js';
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(async () => mapViewIndexSuite('postgres'));
