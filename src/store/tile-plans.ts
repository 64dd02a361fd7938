// Vector tiles of every feature's footprint, read in the same transaction or snapshot as
// the catalogue version, like every other read (see read-plans.ts). A crowded tile was made
// at import (tile-precompute.ts); any other is made now, from at most CROWDED_ABOVE
// footprints: SQLite hands them to the JavaScript encoder (the same one that made the crowded
// tiles), PostGIS encodes the tile itself.
import type { FeatureType } from '../catalogue/format.js';
import { encodeTile, type TileFeature } from '../tiles/encode.js';
import { TILE_BUFFER, TILE_EXTENT, TILE_LAYER, tileBox, type TileAddress } from '../tiles/grid.js';
import { versionPlan, type Plan } from './read-plans.js';
import type { VectorTile } from './store.js';

/** A row means the tile was made at import; its mvt is null when the tile is empty. */
const STORED_TILE = 'SELECT mvt FROM tiles WHERE z = $1 AND x = $2 AND y = $3';

/** The footprints and properties a tile needs; the first category is the one at position 0. */
export const SQLITE_TILE_FEATURES = `SELECT f.id, f.feature_type, f.b_name, f.geometry, c.name AS category, c.id AS category_id
  FROM features f
  LEFT JOIN feature_categories fc ON fc.feature_id = f.id AND fc.position = 0
  LEFT JOIN categories c ON c.id = fc.category_id`;

/** A footprint's bounding box (R*Tree row r) meets the buffered tile; parameters from sqliteTileParams. */
const SQLITE_MEETS_TILE = 'r.max_x >= $1 AND r.min_x <= $2 AND r.max_y >= $3 AND r.min_y <= $4';

/** Candidates by bounding box meeting the buffered tile; the encoder clips the rest away. */
export const SQLITE_TILE_CANDIDATES = `${SQLITE_TILE_FEATURES.replace('FROM features f', 'FROM features_rtree r JOIN features f ON f.id = r.id')}
  WHERE ${SQLITE_MEETS_TILE}
  ORDER BY f.id`;

/** How many footprints a tile would be made from (which tiles are crowded: tiles/crowded.ts). */
export const SQLITE_TILE_COUNT = `SELECT count(*) FROM features_rtree r WHERE ${SQLITE_MEETS_TILE}`;

/** The same count, stopped past `limit`: enough to tell a crowded tile, without counting a whole catalogue at zoom 0. */
export const sqliteTileCountUpTo = (limit: number) => `SELECT count(*) FROM (SELECT 1 FROM features_rtree r WHERE ${SQLITE_MEETS_TILE} LIMIT ${limit + 1})`;

export function sqliteTileParams(tile: TileAddress): number[] {
  const [minX, minY, maxX, maxY] = tileBox(tile);
  return [minX, maxX, minY, maxY];
}

export interface SqliteTileRow {
  id: number;
  feature_type: FeatureType;
  b_name: string | null;
  geometry: string;
  category: string | null;
  category_id: number | null;
}

/** Rows as the encoder takes them, each footprint parsed only when the encoder reaches it. */
export function* tileFeatures(rows: Iterable<SqliteTileRow>): Generator<TileFeature> {
  for (const row of rows) yield { ...row, geometry: JSON.parse(row.geometry) };
}

function* storedTile({ z, x, y }: TileAddress): Plan<{ bytes: Buffer | null } | null> {
  const rows = (yield { sql: STORED_TILE, params: [z, x, y] }) as { mvt: Buffer | null }[];
  return rows[0] ? { bytes: rows[0].mvt } : null;
}

export function* sqliteTilePlan(tile: TileAddress): Plan<VectorTile> {
  const version = yield* versionPlan();
  const stored = yield* storedTile(tile);
  if (stored) return { version, ...stored };
  const rows = (yield { sql: SQLITE_TILE_CANDIDATES, params: sqliteTileParams(tile) }) as SqliteTileRow[];
  return { version, bytes: encodeTile(tile, tileFeatures(rows)) };
}

/**
 * One tile by PostGIS ($1..$3 = z, x, y; $4..$7 = the buffered lon/lat box, found through
 * the GiST index on geom), empty bytes when no footprint reaches it. `fid` becomes the MVT
 * feature id; `id` stays a property, as in the SQLite tiles.
 */
export const POSTGRES_TILE_MVT = `SELECT ST_AsMVT(t, '${TILE_LAYER}', ${TILE_EXTENT}, 'geom', 'fid') FROM (
  SELECT f.id AS fid, f.id, f.feature_type, c.name AS category, c.id AS category_id, f.b_name,
    ST_AsMVTGeom(ST_Transform(f.geom, 3857), ST_TileEnvelope($1, $2, $3), ${TILE_EXTENT}, ${TILE_BUFFER}, true) AS geom
  FROM features f
  LEFT JOIN feature_categories fc ON fc.feature_id = f.id AND fc.position = 0
  LEFT JOIN categories c ON c.id = fc.category_id
  WHERE f.geom && ST_MakeEnvelope($4, $5, $6, $7, 4326)
  ORDER BY f.id
) t WHERE t.geom IS NOT NULL`;

/** The same tile made of some features only ($8, their ids): an apply's changed footprints, spliced into the stored tile (tiles/splice.ts). */
export const POSTGRES_TILE_MVT_OF_FEATURES = POSTGRES_TILE_MVT.replace('WHERE f.geom &&', 'WHERE f.id = ANY($8::int[]) AND f.geom &&');

/** z, x, y, then the buffered tile's lon/lat box (tileBox): a web-mercator envelope with a margin reaches past the poles at low zooms, where ST_Transform finds nothing. */
export function postgresTileParams(tile: TileAddress): number[] {
  return [tile.z, tile.x, tile.y, ...tileBox(tile)];
}

export function* postgresTilePlan(tile: TileAddress): Plan<VectorTile> {
  const version = yield* versionPlan();
  const stored = yield* storedTile(tile);
  if (stored) return { version, ...stored };
  const rows = (yield { sql: `SELECT (${POSTGRES_TILE_MVT}) AS mvt`, params: postgresTileParams(tile) }) as { mvt: Buffer | null }[];
  const bytes = rows[0]?.mvt ?? null;
  return { version, bytes: bytes !== null && bytes.length > 0 ? bytes : null };
}
