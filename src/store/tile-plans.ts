// Vector tiles of every feature's footprint, read in the same transaction or snapshot as
// the catalogue version, like every other read (see read-plans.ts). A crowded tile was made
// at import (tile-precompute.ts); any other is made now, from at most CROWDED_ABOVE
// footprints. Either way the store only finds the footprints whose box meets the buffered
// tile (at import window by window), and the one JavaScript encoder (tiles/encode.ts)
// draws them: the two stores differ only in how they find a box, so their tiles cannot disagree.
import type { FeatureType } from '../catalogue/format.js';
import { TileBuilder, type TileFeature } from '../tiles/encode.js';
import { tileBox, type TileAddress } from '../tiles/grid.js';
import { versionPlan, type Plan } from './read-plans.js';
import type { VectorTile } from './store.js';

/** A row means the tile was made at import; its mvt is null when the tile is empty. */
const STORED_TILE = 'SELECT mvt FROM tiles WHERE z = $1 AND x = $2 AND y = $3';

/** Features read per query of a crowded tile at import: a window of positions (0-based, in id order). */
export const TILE_BATCH = 1000;

/** How many features there are: positions run from 0 to this, less one. */
const FEATURE_COUNT = 'SELECT coalesce(max(position) + 1, 0) AS n FROM features';

/** The footprints and properties a tile needs; the first category is the one at position 0. */
const TILE_FEATURES = `SELECT f.id, f.feature_type, f.b_name, f.geometry, c.name AS category, c.id AS category_id
  FROM features f
  LEFT JOIN feature_categories fc ON fc.feature_id = f.id AND fc.position = 0
  LEFT JOIN categories c ON c.id = fc.category_id`;

/** Which store's SQL finds the footprints whose box meets the buffered tile ($1..$4: tileParams). */
export interface TileSql {
  /** Every candidate, found through the spatial index: a tile made on request has at most CROWDED_ABOVE. */
  inBox: string;
  /**
   * At import, a crowded tile's candidates among the features at positions $5 to $6 (excluded):
   * read in windows, never whole. A window, unlike "the next 1,000 in the box", costs the same
   * whatever the planner thinks of the box (PostgreSQL has no statistics of the rows being
   * imported, and would scan and sort the whole box again for each batch).
   */
  batch: string;
  /** How many footprints meet the box (which tiles are crowded: tiles/crowded.ts). */
  count: string;
}

const SQLITE_BOX = 'r.max_x >= $1 AND r.min_x <= $2 AND r.max_y >= $3 AND r.min_y <= $4';

/**
 * SQLite: the R*Tree's boxes (rounded outwards to floats: a superset, which the encoder clips
 * away). A batch walks its window of features and looks each box up by id (CROSS JOIN keeps
 * that order: driven by the R*Tree, every batch would scan the whole crowded box again).
 */
export const SQLITE_TILE_SQL: TileSql = {
  inBox: `${TILE_FEATURES.replace('FROM features f', 'FROM features_rtree r JOIN features f ON f.id = r.id')}
  WHERE ${SQLITE_BOX}`,
  batch: `${TILE_FEATURES.replace('FROM features f', 'FROM features f CROSS JOIN features_rtree r')}
  WHERE r.id = f.id AND ${SQLITE_BOX} AND f.position >= $5 AND f.position < $6`,
  count: `SELECT count(*) AS n FROM features_rtree r WHERE ${SQLITE_BOX}`,
};

/**
 * PostgreSQL: the GiST index on geom, against the buffered tile's lon/lat box (a web-mercator
 * envelope with a margin would reach past the poles at low zooms, where ST_Transform finds nothing).
 */
const POSTGRES_BOX = 'f.geom && ST_MakeEnvelope($1, $3, $2, $4, 4326)';
export const POSTGRES_TILE_SQL: TileSql = {
  inBox: `${TILE_FEATURES} WHERE ${POSTGRES_BOX}`,
  batch: `${TILE_FEATURES} WHERE ${POSTGRES_BOX} AND f.position >= $5 AND f.position < $6`,
  count: `SELECT count(*)::int AS n FROM features f WHERE ${POSTGRES_BOX}`,
};

/** The buffered tile's box as both stores' SQL takes it: min lon, max lon, min lat, max lat. */
export function tileParams(tile: TileAddress): number[] {
  const [minX, minY, maxX, maxY] = tileBox(tile);
  return [minX, maxX, minY, maxY];
}

interface TileRow {
  id: number;
  feature_type: FeatureType;
  b_name: string | null;
  geometry: string;
  category: string | null;
  category_id: number | null;
}

function toTileFeature(row: TileRow): TileFeature {
  return { ...row, geometry: JSON.parse(row.geometry) };
}

/** A tile made on request: its few candidates in one read (the builder's result does not depend on their order). */
export function* encodedTilePlan(tile: TileAddress, sql: TileSql): Plan<Buffer | null> {
  const builder = new TileBuilder(tile);
  const rows = (yield { sql: sql.inBox, params: tileParams(tile) }) as TileRow[];
  for (const row of rows) builder.add(toTileFeature(row));
  return builder.finish();
}

/** A crowded tile made at import, its footprints read window after window. */
export function* crowdedTilePlan(tile: TileAddress, sql: TileSql): Plan<Buffer | null> {
  const builder = new TileBuilder(tile);
  const box = tileParams(tile);
  const [{ n }] = (yield { sql: FEATURE_COUNT, params: [] }) as [{ n: number }];
  for (let from = 0; from < n; from += TILE_BATCH) {
    const rows = (yield { sql: sql.batch, params: [...box, from, from + TILE_BATCH] }) as TileRow[];
    for (const row of rows) builder.add(toTileFeature(row));
  }
  return builder.finish();
}

function* storedTile({ z, x, y }: TileAddress): Plan<{ bytes: Buffer | null } | null> {
  const rows = (yield { sql: STORED_TILE, params: [z, x, y] }) as { mvt: Buffer | null }[];
  return rows[0] ? { bytes: rows[0].mvt } : null;
}

export function* tilePlan(tile: TileAddress, sql: TileSql): Plan<VectorTile> {
  const version = yield* versionPlan();
  const stored = yield* storedTile(tile);
  if (stored) return { version, ...stored };
  return { version, bytes: yield* encodedTilePlan(tile, sql) };
}
