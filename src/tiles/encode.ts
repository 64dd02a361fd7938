// Mapbox Vector Tiles from footprints, in JavaScript: the ONE encoder of both stores, for a
// tile made on request and for a crowded tile made at import alike, so that a footprint is
// drawn the same whichever store or path made its tile. The store hands over the footprints
// whose box meets the tile (in id order, in batches: tile-plans.ts); the builder keeps only
// what the tile may hold, so memory follows the tile's budget, not the catalogue's size.
// At full detail a footprint 2 pixels across or more (the area of 2 × 2 pixels) is a polygon
// in the `features` layer (clipped, rounded, simplified: tile-geometry.ts); a smaller one
// falls into a cell of a 2-pixel grid, and each cell is one point in the `points` layer: the
// lowest id of the cell, and how many footprints it stands for (as tippecanoe drops the
// densest). A tile whose bytes would pass its budget is drawn at the first level of detail
// that keeps it (budget.ts): polygons from a larger size, the rest counted in points.
// Below FULL_PROPERTIES_ZOOM a polygon carries only id and category_id. Which properties, in
// which order, from which zoom: layers.ts. A stored tile at full detail is edited with the
// same pieces (edit.ts).
import { fromVectorTileJs, type VectorTileLayerLike } from '@maplibre/vt-pbf';
import Point from '@mapbox/point-geometry';
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { FeatureType, MultiPolygon } from '../catalogue/format.js';
import { at, outOfBounds } from '../invariant.js';
import { DETAIL_LEVELS, FULL_DETAIL, LAST_LEVEL, TILE_BUDGET_BYTES, detailLevel } from './budget.js';
import { TILE_BUFFER, TILE_EXTENT, type TileAddress } from './grid.js';
import { POINT_LAYER, POLYGON_LAYER, fieldsAt } from './layers.js';
import { boxCentre, exteriorArea, footprintRings, lonLatBox, type LonLatBox, type TileRing } from './tile-geometry.js';

/**
 * What a tile carries of a feature: its footprint and the properties a map styles by. A type,
 * not an interface, so that it reads as a record of values by field name (layers.ts names them).
 */
export type TileFeature = {
  id: number;
  [F.type]: FeatureType;
  [F.name]: string | null;
  /** The first category's name and id, null when the feature has none. */
  category: string | null;
  category_id: number | null;
  /** Null when the store knew the footprint to be under 2 pixels across: then its box is given. */
  geometry: MultiPolygon | null;
  /** Its lon/lat box over every position; computed from the geometry when not given. */
  box?: LonLatBox;
};

/**
 * A feature as vt-pbf writes it, always with its id (the feature's). Written here: vt-pbf's own
 * declaration does not resolve under NodeNext (its types read as `any`).
 */
export interface TileVectorFeature {
  id: number;
  type: 0 | 1 | 2 | 3;
  properties: Record<string, string | number | boolean>;
  extent: number;
  loadGeometry(): Point[][];
}

/** A cell of small footprints: the one with the lowest id stands for the others (its values: those the points layer carries). */
export interface Cell {
  id: number;
  values: Readonly<Record<string, unknown>>;
  at: Point;
  count: number;
}

/** Where a footprint falls in a tile: drawn as a polygon, counted in a cell of the points grid, or nowhere. */
export type Placement =
  | { kind: 'polygon'; rings: TileRing[] }
  | { kind: 'cell'; cx: number; cy: number; key: string; centre: Point }
  | null;

/** The encoder's one decision for a footprint at a level of detail (budget.ts): a polygon from its size across, else a point of its cell if its centre lies in the buffer. */
export function placement(feature: TileFeature, tile: TileAddress, level = FULL_DETAIL): Placement {
  const measured = measure(feature, tile);
  const { polygonUnits, cellUnits } = detailLevel(level);
  if (measured.size >= polygonUnits) {
    const rings = footprintRings(footprintOf(feature), tile);
    return rings.length > 0 ? { kind: 'polygon', rings } : null;
  }
  return cellOf(measured.centre, cellUnits);
}

/** A footprint's size across in the tile's units (0 when the store sent only its box: then certainly under 2 pixels) and its box's centre. */
function measure(feature: TileFeature, tile: TileAddress): { size: number; centre: Point } {
  const { geometry } = feature;
  const box = feature.box ?? (geometry === null ? null : lonLatBox(geometry));
  if (box === null) throw new Error(`Feature ${feature.id} came with neither a footprint nor a box.`);
  const { x, y } = boxCentre(box, tile);
  return { size: geometry === null ? 0 : Math.sqrt(exteriorArea(geometry, tile)), centre: new Point(x, y) };
}

/** A footprint measured as a polygon has its geometry: one sent as a box only measures 0. */
function footprintOf(feature: TileFeature): MultiPolygon {
  if (feature.geometry === null) throw new Error(`Feature ${feature.id} came without its footprint, yet measured as a polygon.`);
  return feature.geometry;
}

function cellOf(centre: Point, cellUnits: number): Placement {
  if (!insideBuffer(centre)) return null;
  const [cx, cy] = [Math.floor(centre.x / cellUnits), Math.floor(centre.y / cellUnits)];
  return { kind: 'cell', cx, cy, key: `${cx},${cy}`, centre };
}

/** A tile's bytes (null: nothing lies in it) and the level of detail they were drawn at. */
export interface EncodedTile {
  bytes: Buffer | null;
  level: number;
  /**
   * Made with `keepLevels`: every level before it, each over budget (none at full detail).
   * A stored tile keeps them, so that an apply knows whether a change lets an earlier level
   * fit: a level whose fewest possible bytes are over budget as its bound alone (an edit
   * lowers the bound by what the changed footprints took at the most, and while it stays over,
   * the level is over), any other as its bytes, edited like the tile.
   */
  lower?: LowerLevel[];
}

export type LowerLevel = { bytes: Buffer } | { least: number };

interface Polygon {
  size: number;
  feature: TileVectorFeature;
  /** The fewest bytes it takes in a tile. */
  least: number;
}

/**
 * The fewest bytes a feature takes besides its geometry: the layer's field header (2), id
 * (2), tags (2 + 2 a property: a polygon has id at least), type (2), geometry's header (2);
 * and its id's entry in the layer's values (3 and the number's own bytes): no two features
 * of a layer share an id, so no two share that entry.
 */
const leastPolygonBytes = (polygon: TileVectorFeature) => 12 + 3 + varintSize(polygon.id) + geometrySize(polygon);
/**
 * A point: id and count its properties at least, one position (3 bytes of geometry), its id's
 * value; with the fewest bytes of any id, since the lowest id standing for a cell may change.
 */
const LEAST_POINT_BYTES = 17 + 3 + 1;

/**
 * A level over budget by its fewest bytes is kept as that bound only when it is over by this
 * much: an apply lowers the bound by what each change may take (a footprint's polygon: tens
 * to hundreds of bytes), and a bound no longer over makes the tile again whole. One over by
 * less is encoded (it may be under budget after all, and is kept as bytes).
 */
const BOUND_SLACK_BYTES = 16 * 1024;
/** A level is given up (its polygons let go) once its fewest bytes pass this: twice the budget, so its bound has slack. */
const GIVE_UP_BYTES = 2 * TILE_BUDGET_BYTES;

/**
 * Every level of detail built at once, in one pass over the footprints (added in any order,
 * the result the same): a level is given up as soon as the fewest bytes its features can take
 * are over twice the budget, and the polygons only it drew are let go, so memory stays within a few budgets
 * whatever the catalogue. finish() encodes the first level left whose bytes fit.
 */
export class TileBuilder {
  private polygons: Polygon[] = [];
  private readonly cells: Map<number, Cell>[] = DETAIL_LEVELS.map(() => new Map());
  /** A lower bound of each level's tile size: what its polygons and points take at the least. */
  private readonly least = DETAIL_LEVELS.map(() => 0);
  /** Levels below this one are over budget. */
  private first = FULL_DETAIL;

  /** keepLevels: answer what a stored tile keeps of the levels before the one that fits too (`EncodedTile.lower`). */
  constructor(private readonly tile: TileAddress, private readonly keepLevels = false) {}

  add(feature: TileFeature): void {
    const { size, centre } = measure(feature, this.tile);
    const inside = insideBuffer(centre);
    let polygon: Polygon | null | undefined;
    let point: Cell | undefined;
    for (let level = this.first; level <= LAST_LEVEL; level++) {
      const { polygonUnits, cellUnits } = detailLevel(level);
      if (size >= polygonUnits) {
        polygon ??= this.polygonOf(feature, size);
        if (polygon !== null) this.least[level] = this.leastAt(level) + polygon.least;
      } else if (inside) {
        // What a cell keeps of the footprint is the same at every level: made once.
        point ??= { id: feature.id, values: pointValues(feature), at: centre.round(), count: 1 };
        if (addToCell(this.cellsAt(level), point, cellNumber(centre, cellUnits))) this.least[level] = this.leastAt(level) + LEAST_POINT_BYTES;
      }
    }
    this.giveUpOverBudget();
  }

  /** The bytes of the first level that fits the budget (the last always does), or null when nothing lies in the tile. */
  finish(): EncodedTile {
    const lower: LowerLevel[] = [];
    for (let level = FULL_DETAIL; level <= LAST_LEVEL; level++) {
      // A level given up keeps the bound it passed twice the budget with.
      const least = this.leastAt(level);
      if (level < this.first || (least > TILE_BUDGET_BYTES + BOUND_SLACK_BYTES && level < LAST_LEVEL)) {
        lower.push({ least });
        continue;
      }
      const { polygonUnits } = detailLevel(level);
      const polygons = this.polygons.filter((p) => p.size >= polygonUnits).map((p) => p.feature);
      const bytes = tileBytes(polygons, [...this.cellsAt(level).values()].map((cell) => pointFeature(cell, this.tile.z)));
      if (bytes === null || bytes.length <= TILE_BUDGET_BYTES || level === LAST_LEVEL) return this.keepLevels ? { bytes, level, lower } : { bytes, level };
      lower.push({ bytes });
    }
    throw new Error('unreachable: the last level always answers');
  }

  private polygonOf(feature: TileFeature, size: number): Polygon | null {
    const rings = footprintRings(footprintOf(feature), this.tile);
    if (rings.length === 0) return null;
    const vectorFeature = polygonFeature(feature, rings, this.tile.z);
    const polygon = { size, feature: vectorFeature, least: leastPolygonBytes(vectorFeature) };
    this.polygons.push(polygon);
    return polygon;
  }

  private giveUpOverBudget(): void {
    const before = this.first;
    while (this.first < LAST_LEVEL && this.leastAt(this.first) > GIVE_UP_BYTES) this.cellsAt(this.first++).clear();
    if (this.first === before) return;
    const { polygonUnits } = detailLevel(this.first);
    this.polygons = this.polygons.filter((p) => p.size >= polygonUnits);
  }

  private leastAt(level: number): number {
    const least = this.least[level];
    if (least === undefined) outOfBounds();
    return least;
  }

  private cellsAt(level: number): Map<number, Cell> {
    const cells = this.cells[level];
    if (cells === undefined) outOfBounds();
    return cells;
  }
}

/**
 * A cell of the grid as one number (cells within the buffer, from -2 to 132 across at the
 * smallest): the builder's key, cheaper than placement's text.
 */
function cellNumber({ x, y }: Point, cellUnits: number): number {
  return (Math.floor(y / cellUnits) + 8) * 1024 + Math.floor(x / cellUnits) + 8;
}

/** A footprint's point (count 1) counted in its cell; true when it opens the cell. */
function addToCell(cells: Map<number, Cell>, point: Cell, key: number): boolean {
  const cell = cells.get(key);
  if (cell === undefined) {
    cells.set(key, { id: point.id, values: point.values, at: point.at, count: 1 });
    return true;
  }
  cell.count += 1;
  if (point.id < cell.id) Object.assign(cell, { id: point.id, values: point.values, at: point.at });
  return false;
}

/**
 * How much a footprint's change may lower a level's fewest possible bytes (TileBuilder's
 * `least`) at the most: what the footprint took before (its polygon's least, or the point of a
 * cell it may have been alone in), less what it takes after (its polygon's least; a point it
 * may share with others counts nothing).
 */
export function leastLoweredBy(before: TileFeature | undefined, after: TileFeature | undefined, tile: TileAddress, level: number): number {
  const least = (feature: TileFeature | undefined, cellCounts: boolean) => {
    const place = feature && placement(feature, tile, level);
    if (feature !== undefined && place?.kind === 'polygon') return leastPolygonBytes(polygonFeature(feature, place.rings, tile.z));
    return place?.kind === 'cell' && cellCounts ? LEAST_POINT_BYTES : 0;
  };
  return least(before, true) - least(after, false);
}

/** The footprints met one at a time, at the first level of detail that fits the budget. */
export function encodeTile(tile: TileAddress, features: Iterable<TileFeature>): EncodedTile {
  const builder = new TileBuilder(tile);
  for (const feature of features) builder.add(feature);
  return builder.finish();
}

/** A polygon's geometry as vt-pbf writes it (writeGeometry): a command and two varints a position, the closing one left out. */
function geometrySize(feature: TileVectorFeature): number {
  let [bytes, x, y] = [0, 0, 0];
  for (const ring of feature.loadGeometry()) {
    const count = ring.length - 1;
    bytes += 1 + varintSize((count - 1) << 3) + 1;
    for (let i = 0; i < count; i++) {
      const point = ring[i];
      if (point === undefined) outOfBounds();
      bytes += varintSize(zigzag(point.x - x)) + varintSize(zigzag(point.y - y));
      [x, y] = [point.x, point.y];
    }
  }
  return bytes;
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** The tile's bytes: each layer's features in id order, a layer without any left out; null when both are empty. */
export function tileBytes(polygons: TileVectorFeature[], points: TileVectorFeature[]): Buffer | null {
  if (polygons.length === 0 && points.length === 0) return null;
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  const layers: Record<string, VectorTileLayerLike> = {};
  if (polygons.length > 0) layers[POLYGON_LAYER.id] = layer(POLYGON_LAYER.id, polygons.sort(byId));
  if (points.length > 0) layers[POINT_LAYER.id] = layer(POINT_LAYER.id, points.sort(byId));
  return Buffer.from(fromVectorTileJs({ layers }));
}

function insideBuffer({ x, y }: Point): boolean {
  return x >= -TILE_BUFFER && x < TILE_EXTENT + TILE_BUFFER && y >= -TILE_BUFFER && y < TILE_EXTENT + TILE_BUFFER;
}

function layer(name: string, features: TileVectorFeature[]): VectorTileLayerLike {
  return { version: 2, name, extent: TILE_EXTENT, length: features.length, feature: (i: number) => at(features, i) };
}

/** The layer's fields carried at the zoom, in their declared order, a null one left out. */
function properties(layer: typeof POLYGON_LAYER, z: number, value: (name: string, perCell: boolean) => unknown): TileVectorFeature['properties'] {
  const out: TileVectorFeature['properties'] = {};
  for (const [name, field] of fieldsAt(layer, z)) {
    const v = value(name, field.perCell === true);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[name] = v;
    else if (v !== null && v !== undefined) throw new Error(`A tile's ${name} must be a string or a number, not ${typeof v}.`);
  }
  return out;
}

export function polygonFeature(feature: TileFeature, rings: TileRing[], z: number): TileVectorFeature {
  const values: Readonly<Record<string, unknown>> = feature;
  return { id: feature.id, type: 3, properties: properties(POLYGON_LAYER, z, (name) => values[name]), extent: TILE_EXTENT, loadGeometry: () => rings };
}

/** What a cell keeps of the footprint standing for it: the values the points layer carries (not its footprint). */
export function pointValues(feature: TileFeature): Record<string, unknown> {
  const values: Readonly<Record<string, unknown>> = feature;
  return Object.fromEntries(Object.entries(POINT_LAYER.fields).filter(([, field]) => !field.perCell).map(([name]) => [name, values[name]]));
}

export function pointFeature(cell: Cell, z: number): TileVectorFeature {
  return { id: cell.id, type: 1, properties: properties(POINT_LAYER, z, (name, perCell) => (perCell ? cell.count : cell.values[name])), extent: TILE_EXTENT, loadGeometry: () => [[cell.at]] };
}
