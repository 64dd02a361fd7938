import { keptExtentsSuite } from '../support/kept-extents.js';
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(async () => keptExtentsSuite('postgres'));
