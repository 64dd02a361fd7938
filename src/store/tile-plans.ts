// Vector tiles of every feature's footprint, read in the same transaction or snapshot as
// the catalogue version, like every other read (see read-plans.ts). A crowded tile was made
// at import (tile-precompute.ts) and edited by each apply since (tiles/edit.ts); any other
// is made now, from at most CROWDED_ABOVE footprints (and CROWDED_POSITIONS positions). Either way the store only finds the
// footprints whose box meets the buffered tile (at import window by window), and the one
// JavaScript encoder (tiles/encode.ts) draws them: the two stores differ only in how they
// find a box, so their tiles cannot disagree. The plans that write tiles are here too, once
// for both stores.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { FeatureType, MultiPolygon } from '../catalogue/format.js';
import { multiPolygonFromWkb } from '../catalogue/wkb.js';
import { decodeOutline, type Box } from '../search/box.js';
import { CROWDED_ABOVE, CROWD_LIMITS, EVERY_TILE, crowdedSearch, tilesMeeting, type TileScope } from '../tiles/crowded.js';
import { TileEdit, firstChangedZoom, footprintChanged, type TileChange } from '../tiles/edit.js';
import { FULL_DETAIL, TILE_BUDGET_BYTES } from '../tiles/budget.js';
import { TileBuilder, leastLoweredBy, type EncodedTile, type LowerLevel, type TileFeature } from '../tiles/encode.js';
import { MAX_LATITUDE, MAX_TILE_ZOOM, TILE_EXTENT, VISIBLE_UNITS, tileBox, type TileAddress } from '../tiles/grid.js';
import { lonLatBox } from '../tiles/tile-geometry.js';
import { POSTGRES_DIALECT, SQLITE_DIALECT, type Dialect } from './dialect.js';
import { versionPlan, type Plan, type Query } from './read-plans.js';
import type { VectorTile } from './store.js';

/** A row means the tile was made at import; its mvt is null when the tile is empty. */
const STORED_TILE = 'SELECT mvt, level FROM tiles WHERE z = $1 AND x = $2 AND y = $3';

/** Features read per query of a crowded tile at import: a window of positions (0-based, in id order). */
export const TILE_BATCH = 1000;

/** How many features there are: positions run from 0 to this, less one. */
const FEATURE_COUNT = 'SELECT coalesce(max(position) + 1, 0) AS n FROM features';

/**
 * The footprints and properties a tile needs; the first category is the one at position 0.
 * `footprint`: the footprint's column, its text (`geometry`, parsed) or, where tiles are made
 * on request or at import, the store's binary form (`footprint`, TileSql.decode): parsing the
 * JSON of 500 footprints was a sixth of a tile's CPU.
 */
const tileFeatures = (footprint: string) => `SELECT f.id, f.${F.type}, f.${F.name}, ${footprint}, c.name AS category, c.id AS category_id
  FROM features f
  LEFT JOIN feature_categories fc ON fc.feature_id = f.id AND fc.position = 0
  LEFT JOIN categories c ON c.id = fc.category_id`;
const TILE_FEATURES = tileFeatures('f.geometry');

/** Which store's SQL finds the footprints whose box meets the buffered tile ($1..$4: tileParams). */
export interface TileSql {
  /** Its ids lists (`idIn`), for the features a tile edit reads by id. */
  dialect: Dialect;
  /** Its binary footprint (inBox's and batch's `footprint`) → the footprint. */
  decode(bytes: Uint8Array): MultiPolygon;
  /** Every candidate, found through the spatial index: a tile made on request has at most CROWDED_ABOVE. */
  inBox: string;
  /**
   * At import, a crowded tile's candidates among the features at positions `from` to `to`
   * (excluded): read in windows, never whole. A window, unlike "the next 1,000 in the box",
   * costs the same whatever the planner thinks of the box (PostgreSQL has no statistics of
   * the rows being imported, and would scan and sort the whole box again for each batch).
   */
  batch(tile: TileAddress, from: number, to: number): Query;
  /**
   * How many footprints meet the box (n), counted up to one past CROWDED_ABOVE, and their
   * positions (p): enough to tell a crowded tile (tiles/crowded.ts) without counting the
   * whole catalogue at zoom 0.
   */
  count: string;
  /** The footprints whose box meets a box, above an id, in id order, at most `limit` of them. */
  byIdInBox(box: Box, after: number, limit: number): Plan<TileRow[]>;
  /** The same for each of several boxes from the lowest id: the first page of each. */
  firstInBoxes(boxes: readonly Box[], limit: number): Plan<TileRow[][]>;
}

const SQLITE_BOX = 'r.max_x >= $1 AND r.min_x <= $2 AND r.max_y >= $3 AND r.min_y <= $4';

/**
 * SQLite: the R*Tree's boxes (rounded outwards to floats: a superset, which the encoder clips
 * away). A batch walks its window of features and looks each box up by id (CROSS JOIN keeps
 * that order: driven by the R*Tree, every batch would scan the whole crowded box again).
 */
const SQLITE_FEATURES = tileFeatures('f.outline AS footprint');

const SQLITE_BATCH = `${SQLITE_FEATURES.replace('FROM features f', 'FROM features f CROSS JOIN features_rtree r')}
  WHERE r.id = f.id AND ${SQLITE_BOX} AND f.position >= $5 AND f.position < $6`;

export const SQLITE_TILE_SQL: TileSql = {
  dialect: SQLITE_DIALECT,
  decode: decodeOutline,
  inBox: `${SQLITE_FEATURES.replace('FROM features f', 'FROM features_rtree r JOIN features f ON f.id = r.id')}
  WHERE ${SQLITE_BOX}`,
  batch: (tile, from, to) => ({ sql: SQLITE_BATCH, params: [...tileParams(tile), from, to] }),
  // The R*Tree keeps each footprint's positions beside its box (an auxiliary column): no row of features read.
  count: `SELECT count(*) AS n, coalesce(sum(positions), 0) AS p FROM (SELECT r.positions FROM features_rtree r WHERE ${SQLITE_BOX} LIMIT ${CROWDED_ABOVE + 1})`,
  // Their ids from the R*Tree alone, sorted, then their rows: a cell of a low zoom meets most of the catalogue, whose rows a sort would hold.
  *byIdInBox(box, after, limit) {
    const ids = ((yield { sql: SQLITE_IDS_IN_BOX, params: [...boxParams(box), after, limit] }) as { id: number }[]).map((r) => r.id);
    return yield* tileRowsPlan(SQLITE_DIALECT, ids);
  },
  // In process, a query per box costs no round trip. Ids start at 1 (catalogue/schema.ts).
  *firstInBoxes(boxes, limit) {
    const pages: TileRow[][] = [];
    for (const box of boxes) pages.push(yield* SQLITE_TILE_SQL.byIdInBox(box, 0, limit));
    return pages;
  },
};

const SQLITE_IDS_IN_BOX = `SELECT id FROM features_rtree r WHERE ${SQLITE_BOX} AND r.id > $5 ORDER BY r.id LIMIT $6`;

/**
 * PostgreSQL: the GiST index on geom, against the buffered tile's lon/lat box (a web-mercator
 * envelope with a margin would reach past the poles at low zooms, where ST_Transform finds nothing).
 */
const POSTGRES_BOX = 'f.geom && ST_MakeEnvelope($1, $3, $2, $4, 4326)';

/** A latitude put on the grid's edge when past it, as the encoder projects it (at -90° ln(tan(0)) would fail the import). */
const onGrid = (lat: string) => `least(greatest(${lat}, ${-MAX_LATITUDE}), ${MAX_LATITUDE})`;

/** The footprint kept as PostGIS geometry, as WKB: the same float64s as its JSON text (ST_GeomFromGeoJSON). */
const POSTGRES_FOOTPRINT = "ST_AsBinary(f.geom, 'NDR')";

/**
 * A crowded tile's rows on PostgreSQL: each footprint's lon/lat box (exact: the extremes of
 * its positions), and its text only when it may be 2 pixels across ($7: the world's width in
 * the tile's units). At low zooms nearly every footprint is certainly smaller, and its box is
 * all the encoder needs (its point's cell): most of the text then stays in the database. The
 * test errs wide: the boxes' area in the tile's units, times the parts, times 4, against
 * the area of 2 × 2 pixels ($8); the encoder measures every footprint it is sent.
 */
const POSTGRES_BATCH = `SELECT f.id, f.${F.type}, f.${F.name}, c.name AS category, c.id AS category_id,
    ST_XMin(f.geom) AS min_x, ST_YMin(f.geom) AS min_y, ST_XMax(f.geom) AS max_x, ST_YMax(f.geom) AS max_y,
    CASE WHEN 4 * ST_NumGeometries(f.geom) * ((ST_XMax(f.geom) - ST_XMin(f.geom)) / 360 * $7)
      * ((ln(tan(pi() / 4 + radians(${onGrid('ST_YMax(f.geom)')}) / 2)) - ln(tan(pi() / 4 + radians(${onGrid('ST_YMin(f.geom)')}) / 2))) / (2 * pi()) * $7) >= $8
      THEN ${POSTGRES_FOOTPRINT} END AS footprint
  FROM features f
  LEFT JOIN feature_categories fc ON fc.feature_id = f.id AND fc.position = 0
  LEFT JOIN categories c ON c.id = fc.category_id
  WHERE ${POSTGRES_BOX} AND f.position >= $5 AND f.position < $6`;

export const POSTGRES_TILE_SQL: TileSql = {
  dialect: POSTGRES_DIALECT,
  decode: multiPolygonFromWkb,
  inBox: `${tileFeatures(`${POSTGRES_FOOTPRINT} AS footprint`)} WHERE ${POSTGRES_BOX}`,
  batch: (tile, from, to) => ({ sql: POSTGRES_BATCH, params: [...tileParams(tile), from, to, 2 ** tile.z * TILE_EXTENT, VISIBLE_UNITS ** 2] }),
  // ST_NPoints counts a footprint's positions as GeoJSON gives them (closing ones included), as SQLite's column does.
  count: `SELECT count(*)::int AS n, coalesce(sum(ST_NPoints(t.geom)), 0)::int AS p FROM (SELECT f.geom FROM features f WHERE ${POSTGRES_BOX} LIMIT ${CROWDED_ABOVE + 1}) t`,
  *byIdInBox(box, after, limit) {
    return (yield { sql: `${TILE_FEATURES} WHERE ${POSTGRES_BOX} AND f.id > $5 ORDER BY f.id LIMIT $6`, params: [...boxParams(box), after, limit] }) as TileRow[];
  },
  // One round trip for every box (each a cell of a tile an apply edits: there may be hundreds).
  *firstInBoxes(boxes, limit) {
    const column = (i: number) => boxes.map((box) => boxParams(box)[i]);
    const rows = (yield { sql: POSTGRES_FIRST_IN_BOXES, params: [column(0), column(1), column(2), column(3), limit] }) as (TileRow & { box: number })[];
    const pages: TileRow[][] = boxes.map(() => []);
    for (const { box, ...row } of rows) pages[Number(box) - 1]!.push(row);
    return pages;
  },
};

/** POSTGRES_BOX for each box of four arrays (min lon, max lon, min lat, max lat), numbered from 1. */
const POSTGRES_FIRST_IN_BOXES = `SELECT b.n AS box, t.* FROM unnest($1::float8[], $2::float8[], $3::float8[], $4::float8[]) WITH ORDINALITY AS b(min_x, max_x, min_y, max_y, n)
  CROSS JOIN LATERAL (${TILE_FEATURES} WHERE f.geom && ST_MakeEnvelope(b.min_x, b.min_y, b.max_x, b.max_y, 4326) ORDER BY f.id LIMIT $5) t
  ORDER BY b.n, t.id`;

/** The buffered tile's box as both stores' SQL takes it: min lon, max lon, min lat, max lat. */
export function tileParams(tile: TileAddress): number[] {
  return boxParams(tileBox(tile));
}

function boxParams([minX, minY, maxX, maxY]: Box): number[] {
  return [minX, maxX, minY, maxY];
}

interface TileRow {
  id: number;
  [F.type]: FeatureType;
  [F.name]: string | null;
  /** The footprint: as text, or in the store's binary form (TileSql.decode); null only in PostgreSQL's batches, for a footprint certainly under 2 pixels: then its box is given. */
  geometry?: string | null;
  footprint?: Uint8Array | null;
  category: string | null;
  category_id: number | null;
  min_x?: number;
  min_y?: number;
  max_x?: number;
  max_y?: number;
}

function toTileFeature({ geometry, footprint, min_x, min_y, max_x, max_y, ...row }: TileRow, sql?: TileSql): TileFeature {
  const shape = footprint != null ? sql!.decode(footprint) : geometry != null ? (JSON.parse(geometry) as MultiPolygon) : null;
  const feature: TileFeature = { ...row, geometry: shape };
  if (min_x !== undefined) feature.box = [min_x, min_y!, max_x!, max_y!];
  return feature;
}

/**
 * A tile made on request, or made again whole by an apply: its candidates in one read (the
 * builder's result does not depend on their order). On request there are at most
 * CROWDED_ABOVE, with at most CROWDED_POSITIONS positions in all; an apply makes one again only where what it
 * keeps of a stored tile's levels cannot tell which level fits (changedTilePlan).
 */
export function* encodedTilePlan(tile: TileAddress, sql: TileSql, keepLevels = false): Plan<EncodedTile> {
  const builder = new TileBuilder(tile, keepLevels);
  const rows = (yield { sql: sql.inBox, params: tileParams(tile) }) as TileRow[];
  for (const row of rows) builder.add(toTileFeature(row, sql));
  return builder.finish();
}

/** A crowded tile made at import, its footprints read window after window. */
export function* crowdedTilePlan(tile: TileAddress, sql: TileSql): Plan<EncodedTile> {
  const builder = new TileBuilder(tile, true);
  const [{ n }] = (yield { sql: FEATURE_COUNT, params: [] }) as [{ n: number }];
  for (let from = 0; from < n; from += TILE_BATCH) {
    const rows = (yield sql.batch(tile, from, from + TILE_BATCH)) as TileRow[];
    for (const row of rows) builder.add(toTileFeature(row, sql));
  }
  return builder.finish();
}

/** What tiles carry of these features (those found), in id order; with categoryIds, of every feature whose first category is one of them too. */
export function* tileFeaturesPlan(dialect: Dialect, ids: readonly number[], categoryIds: readonly number[] = []): Plan<TileFeature[]> {
  const { idIn, idsParam } = dialect;
  const rows = yield* tileRowsPlan(dialect, ids);
  const byCategory = categoryIds.length === 0 ? [] : (yield { sql: `${TILE_FEATURES} WHERE ${idIn('c.id', '$1')}`, params: [idsParam(categoryIds)] }) as TileRow[];
  const features = new Map([...rows, ...byCategory].map((row) => [Number(row.id), toTileFeature(row)]));
  return [...features.values()].sort((a, b) => a.id - b.id);
}

/** The rows of these features, in id order. */
function* tileRowsPlan(dialect: Dialect, ids: readonly number[]): Plan<TileRow[]> {
  if (ids.length === 0) return [];
  return (yield { sql: `${TILE_FEATURES} WHERE ${dialect.idIn('f.id', '$1')} ORDER BY f.id`, params: [dialect.idsParam(ids)] }) as TileRow[];
}

const STORED_TILES = 'SELECT z, x, y FROM tiles';
const INSERT_TILE = 'INSERT INTO tiles (z, x, y, mvt, level) VALUES ($1, $2, $3, $4, $5)';
const UPDATE_TILE = 'UPDATE tiles SET mvt = $1, level = $2 WHERE z = $3 AND x = $4 AND y = $5';
const DELETE_LEVELS = 'DELETE FROM tile_levels WHERE z = $1 AND x = $2 AND y = $3';
const INSERT_LEVEL = 'INSERT INTO tile_levels (z, x, y, level, mvt, least) VALUES ($1, $2, $3, $4, $5, $6)';
const LOWER_LEVELS = 'SELECT level, mvt, least FROM tile_levels WHERE z = $1 AND x = $2 AND y = $3 ORDER BY level';

/** A stored tile written (inserted, or replacing the one stored), with the bytes of the levels before its own. */
function* writeTile(tile: TileAddress, { bytes, level, lower = [] }: EncodedTile, replacing: boolean): Plan<void> {
  const { z, x, y } = tile;
  if (replacing) {
    yield { sql: UPDATE_TILE, params: [bytes, level, z, x, y] };
    yield { sql: DELETE_LEVELS, params: [z, x, y] };
  } else yield { sql: INSERT_TILE, params: [z, x, y, bytes, level] };
  for (const [before, kept] of lower.entries()) yield { sql: INSERT_LEVEL, params: [z, x, y, before, 'bytes' in kept ? kept.bytes : null, 'least' in kept ? kept.least : null] };
}
const DELETE_TILE = 'DELETE FROM tiles WHERE z = $1 AND x = $2 AND y = $3';

/** The crowded tiles in scope (tiles/crowded.ts), counted by the store. */
function* crowdedTilesPlan(scope: TileScope, sql: TileSql): Plan<TileAddress[]> {
  const search = crowdedSearch(CROWD_LIMITS, scope);
  for (let step = search.next(); ;) {
    if (step.done) return step.value;
    const [row] = (yield { sql: sql.count, params: tileParams(step.value) }) as [{ n: number; p: number }];
    step = search.next({ footprints: Number(row.n), positions: Number(row.p) });
  }
}

/** At import: the previous catalogue's tiles dropped, and every crowded tile made and stored. */
export function* makeTilesPlan(sql: TileSql): Plan<void> {
  const crowded = yield* crowdedTilesPlan(EVERY_TILE, sql);
  yield { sql: 'DELETE FROM tiles', params: [] };
  yield { sql: 'DELETE FROM tile_levels', params: [] };
  for (const tile of crowded) yield* writeTile(tile, yield* crowdedTilePlan(tile, sql), false);
}

/**
 * After an apply, its changed features (as tiles see them, before and after): the stored
 * tiles of each zoom that draws one of them otherwise are edited (tiles/edit.ts); where a
 * footprint was added, removed or moved, the tiles its boxes meet are counted again, and
 * those no longer crowded dropped, those newly crowded made whole.
 */
export function* refreshTilesPlan(changes: readonly TileChange[], sql: TileSql): Plan<void> {
  const drawn = changes.map((change) => ({ change, from: firstChangedZoom(change), meets: tilesMeeting(boxesOf(change)) })).filter(({ from }) => from <= MAX_TILE_ZOOM);
  if (drawn.length === 0) return;
  const moved = drawn.filter(({ change }) => footprintChanged(change)).flatMap(({ change }) => boxesOf(change));
  const counted: TileScope = moved.length === 0 ? () => false : tilesMeeting(moved);
  const crowded = new Map((yield* crowdedTilesPlan(counted, sql)).map((tile) => [tileKey(tile), tile]));
  for (const tile of (yield { sql: STORED_TILES, params: [] }) as TileAddress[]) {
    // A tile no footprint added, removed or moved meets keeps its count, so stays crowded.
    const stillCrowded = crowded.delete(tileKey(tile)) || !counted(tile);
    const edits = drawn.filter(({ from, meets }) => from <= tile.z && meets(tile)).map(({ change }) => change);
    if (!stillCrowded) {
      yield { sql: DELETE_TILE, params: [tile.z, tile.x, tile.y] };
      yield { sql: DELETE_LEVELS, params: [tile.z, tile.x, tile.y] };
    } else if (edits.length > 0) yield* writeTile(tile, yield* changedTilePlan(tile, edits, sql), true);
  }
  for (const tile of crowded.values()) yield* writeTile(tile, yield* crowdedTilePlan(tile, sql), false);
}

const tileKey = ({ z, x, y }: TileAddress) => `${z}/${x}/${y}`;
const boxesOf = ({ before, after }: TileChange): Box[] => [before, after].flatMap((f) => (f?.geometry ? [lonLatBox(f.geometry)] : []));

/** Footprints read while looking for a cell's lowest id: mostly the first is it; where not, often many more are not. */
const CELL_FIRST_PAGE = 10;
const CELL_PAGE = 100;

/**
 * A stored tile after these changes: each of its levels, from full detail on, edited until
 * one fits the budget; that one is the tile, those before it stay stored beside it. A level
 * kept as bytes is edited (tiles/edit.ts) to exactly what the encoder makes, so its size tells
 * whether it fits; one kept as a bound of its fewest bytes is lowered by what the changes may
 * take from it, and is still over while the bound is. Only where neither tells (a bound no
 * longer over, the tile's own level grown past the budget) is the tile made again from its footprints.
 */
function* changedTilePlan(tile: TileAddress, changes: readonly TileChange[], sql: TileSql): Plan<EncodedTile> {
  const stored = yield* storedTile(tile);
  if (stored !== null) {
    const lower = stored.level === FULL_DETAIL ? [] : yield* lowerLevels(tile);
    const edited: LowerLevel[] = [];
    // A level is its place in the list: one of them missing, the tile is made again.
    for (const [level, kept] of (lower.length === stored.level ? [...lower, { bytes: stored.bytes }] : []).entries()) {
      if ('least' in kept) {
        const least = kept.least - changes.reduce((sum, { before, after }) => sum + leastLoweredBy(before, after, tile, level), 0);
        if (least <= TILE_BUDGET_BYTES) break;
        edited.push({ least });
        continue;
      }
      const after = yield* editedTilePlan(tile, kept.bytes, changes, sql, level);
      if (after === null || after.length <= TILE_BUDGET_BYTES) return { bytes: after, level, lower: edited };
      if (level === stored.level) break;
      edited.push({ bytes: after });
    }
  }
  return yield* encodedTilePlan(tile, sql, true);
}

function* lowerLevels({ z, x, y }: TileAddress): Plan<LowerLevel[]> {
  const rows = (yield { sql: LOWER_LEVELS, params: [z, x, y] }) as { level: number; mvt: Buffer | null; least: number | null }[];
  return rows.map((row) => (row.mvt === null ? { least: Number(row.least) } : { bytes: Buffer.from(row.mvt) }));
}

/** A stored level of a tile edited for these changes; the store is asked only for the footprints of the cells whose lowest id left. */
function* editedTilePlan(tile: TileAddress, stored: Buffer | null, changes: readonly TileChange[], sql: TileSql, level: number): Plan<Buffer | null> {
  const edit = new TileEdit(tile, stored ? Buffer.from(stored) : null, changes, level);
  edit.settle(yield* tileFeaturesPlan(sql.dialect, edit.unsureIds()));
  const vacant = edit.vacant();
  const firstPages = vacant.length === 0 ? [] : yield* sql.firstInBoxes(vacant.map(({ box }) => box), CELL_FIRST_PAGE);
  for (const [i, { key, box }] of vacant.entries()) {
    for (let rows = firstPages[i]!; ;) {
      if (rows.length === 0 || rows.map((row) => toTileFeature(row)).some((feature) => edit.offer(key, feature))) break;
      rows = yield* sql.byIdInBox(box, Number(rows[rows.length - 1]!.id), CELL_PAGE);
    }
  }
  return edit.finish();
}

function* storedTile({ z, x, y }: TileAddress): Plan<EncodedTile | null> {
  const rows = (yield { sql: STORED_TILE, params: [z, x, y] }) as { mvt: Buffer | null; level: number }[];
  return rows[0] ? { bytes: rows[0].mvt, level: Number(rows[0].level) } : null;
}

export function* tilePlan(tile: TileAddress, sql: TileSql): Plan<VectorTile> {
  const version = yield* versionPlan();
  const stored = yield* storedTile(tile);
  return { version, bytes: (stored ?? (yield* encodedTilePlan(tile, sql))).bytes };
}
