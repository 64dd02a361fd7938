// The same tests as test/http/tiles.test.ts, on PostgreSQL: the store finds the footprints in a
// tile's box, the one JavaScript encoder draws them. Low zooms cost no more than any other
// tile: a crowded tile is read as stored, any other from at most 1,000 rows of text with no
// PostGIS function to run (ST_AsMVT of a zoom-2 tile once ran into the 800 ms statement
// timeout here while other test files loaded the machine, and answered 503).
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(() => import('../http/tiles.test.js'));
