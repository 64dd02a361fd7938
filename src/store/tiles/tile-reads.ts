// A vector tile, as the executor runs it (src/work/reads.ts): inline, bounded by design (at
// most 500 footprints and 10,000 positions a tile, crowded ones made at import), and a map
// asks for dozens at once.
import type { ReadDeclaration } from '../../work/reads.js';
import type { VectorTile } from '../store.js';
import { tilePlan, tileSqlOf } from './tile-plans.js';

/** A Mapbox Vector Tile of every feature's footprint (layer `features`), from one catalogue version. */
export const tileRead: ReadDeclaration<[z: number, x: number, y: number], VectorTile> = {
  name: 'tile',
  plan: (dialect, z, x, y) => tilePlan({ z, x, y }, tileSqlOf(dialect)),
  workClass: () => null,
};
