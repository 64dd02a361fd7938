// A stored tile edited for a change of a few footprints, to the bytes the encoder (encode.ts)
// makes of the catalogue after the change, without reading the thousands of footprints the
// tile draws. A polygon depends on its own feature only: the changed ones are taken out and
// their new versions drawn in. A point stands for a cell (the lowest id, the count): its count
// moves by the changed footprints leaving and entering the cell, and only when the footprint
// standing for it leaves is the cell's new lowest id looked for, among the footprints meeting
// the cell alone (the store's search, tile-plans.ts). Every other feature is written again as
// it was decoded. The stored tile must be what the encoder made: anything else is an error.
import type Point from '@mapbox/point-geometry';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { at, got } from '../invariant.js';
import type { Box } from '../search/box.js';
import { placement, pointFeature, pointValues, polygonFeature, tileBytes, type Cell, type TileFeature, type TileVectorFeature } from './encode.js';
import { FULL_DETAIL, detailLevel } from './budget.js';
import { MAX_TILE_ZOOM, cellBox, type TileAddress } from './grid.js';
import { POINT_LAYER, POLYGON_LAYER, fieldsCarriedAt } from './layers.js';

/** A feature's change as tiles see it: what they carried of it before and after (absent: added, removed). */
export interface TileChange {
  before?: TileFeature;
  after?: TileFeature;
}

/**
 * The lowest zoom whose tiles may draw the feature otherwise after the change; past
 * MAX_TILE_ZOOM when none does. A footprint changed (or added, removed) reaches every zoom;
 * otherwise only the zooms carrying a value that changed (layers.ts).
 */
export function firstChangedZoom({ before, after }: TileChange): number {
  if (!before || !after || footprintChanged({ before, after })) return 0;
  const a: Readonly<Record<string, unknown>> = before;
  const b: Readonly<Record<string, unknown>> = after;
  for (let z = 0; z <= MAX_TILE_ZOOM; z++) if (fieldsCarriedAt(z).some((name) => a[name] !== b[name])) return z;
  return MAX_TILE_ZOOM + 1;
}

/** Added, removed or moved: the tiles' counts of footprints (which are crowded) may change. */
export function footprintChanged({ before, after }: TileChange): boolean {
  return !before || !after || JSON.stringify(before.geometry) !== JSON.stringify(after.geometry);
}

/** The perCell field of the points layer: how many footprints a point stands for. */
const COUNT = countField();

function countField(): string {
  const entry = Object.entries(POINT_LAYER.fields).find(([, field]) => field.perCell);
  if (entry === undefined) throw new Error('The points layer declares no perCell field.');
  return entry[0];
}

/** A feature decoded from a stored tile, with the id the encoder gave it. */
type DecodedFeature = VectorTileFeature & { id: number };

interface CellEdit {
  cx: number;
  cy: number;
  /** The decoded point that stood for the cell before the change (none: the cell was empty). */
  point?: DecodedFeature;
  /** Changed footprints that the cell counted before, and those it counts after. */
  left: number[];
  entered: { feature: TileFeature; centre: Point }[];
  /** After settle(): the cell as it is now, or null when empty; undefined while its lowest id is to be found. */
  now?: Cell | null;
}

/** A cell whose standing footprint left and whose new lowest id the store must find. */
export interface VacantCell {
  key: string;
  box: Box;
}

export class TileEdit {
  private readonly polygons: TileVectorFeature[] = [];
  /** Decoded points of cells no change reaches: written again as they are. */
  private readonly kept: TileVectorFeature[] = [];
  private readonly cells = new Map<string, CellEdit>();
  /** Points that may stand for a changed cell, which their rounded position cannot tell (on a cell's edge): the store gives their footprints. */
  private readonly unsure = new Map<number, DecodedFeature>();

  /** `changes`: every changed feature the tile may draw, before or after; `level`: the level of detail the tile is drawn at (budget.ts). */
  constructor(private readonly tile: TileAddress, bytes: Buffer | null, changes: readonly TileChange[], private readonly level = FULL_DETAIL) {
    const before = new Map<number, TileFeature>();
    for (const change of changes) {
      if (change.before) {
        before.set(change.before.id, change.before);
        const place = placement(change.before, tile, level);
        if (place?.kind === 'cell') this.cell(place).left.push(change.before.id);
      }
      if (change.after) {
        const place = placement(change.after, tile, level);
        if (place?.kind === 'polygon') this.polygons.push(polygonFeature(change.after, place.rings, tile.z));
        else if (place?.kind === 'cell') this.cell(place).entered.push({ feature: change.after, centre: place.centre });
      }
    }
    const changed = new Set(changes.map(changedId));
    const layers = bytes === null ? {} : new VectorTile(new PbfReader(bytes)).layers;
    for (const feature of decoded(layers[POLYGON_LAYER.id])) if (!changed.has(feature.id)) this.polygons.push(feature);
    for (const point of decoded(layers[POINT_LAYER.id])) {
      const keys = possibleKeys(positionOf(point), detailLevel(level).cellUnits);
      const known = before.get(point.id);
      if (!keys.some((key) => this.cells.has(key))) this.kept.push(point);
      else if (keys.length === 1) got(this.cells, at(keys, 0)).point = point;
      else if (known !== undefined) this.standsFor(point, known);
      else this.unsure.set(point.id, point);
    }
  }

  /** Ids of the features whose footprints settle() needs: points on a cell's edge whose cell a change reaches. */
  unsureIds(): number[] {
    return [...this.unsure.keys()];
  }

  /** Given those footprints (unchanged, from the store), every changed cell's outcome where the change itself tells it. */
  settle(footprints: readonly TileFeature[]): void {
    for (const feature of footprints) this.standsFor(got(this.unsure, feature.id), feature);
    if (footprints.length !== this.unsure.size) throw new Error(`tile ${this.address()}: the footprints of points ${this.unsureIds().join(', ')} were not all found`);
    for (const [key, cell] of this.cells) {
      const count = Number(cell.point?.properties[COUNT] ?? 0) - cell.left.length + cell.entered.length;
      if (count < 0 || (cell.left.length > 0 && cell.point === undefined)) throw new Error(`tile ${this.address()}: cell ${key} counted footprints but has no point`);
      const first = cell.entered.reduce<CellEdit['entered'][number] | undefined>((a, b) => (a === undefined || b.feature.id < a.feature.id ? b : a), undefined);
      const fromEntered = first && { id: first.feature.id, values: pointValues(first.feature), at: first.centre.round(), count };
      const point = cell.point;
      if (count === 0) cell.now = null;
      else if (point === undefined) cell.now = fromEntered;
      else if (!cell.left.includes(point.id)) cell.now = fromEntered && first.feature.id < point.id ? fromEntered : { id: point.id, values: point.properties, at: positionOf(point), count };
      // Every footprint still in the cell has a higher id than the one that left: one entering below it is the lowest.
      else if (first && first.feature.id <= point.id) cell.now = fromEntered;
    }
  }

  /** Cells whose lowest id the store must find: their footprints in id order go to offer(). */
  vacant(): VacantCell[] {
    return [...this.cells].filter(([, cell]) => cell.now === undefined).map(([key, { cx, cy }]) => ({ key, box: cellBox(this.tile, cx, cy, detailLevel(this.level).cellUnits) }));
  }

  /** A footprint meeting a vacant cell, offered in id order: true when it is the cell's lowest (the search stops). */
  offer(key: string, feature: TileFeature): boolean {
    const place = placement(feature, this.tile, this.level);
    const cell = got(this.cells, key);
    if (place?.kind !== 'cell' || place.key !== key) return false;
    if (cell.point === undefined) throw new Error(`tile ${this.address()}: vacant cell ${key} had no point`);
    const count = Number(cell.point.properties[COUNT]) - cell.left.length + cell.entered.length;
    cell.now = { id: feature.id, values: pointValues(feature), at: place.centre.round(), count };
    return true;
  }

  finish(): Buffer | null {
    const points = [...this.kept];
    for (const [key, cell] of this.cells) {
      if (cell.now === undefined) throw new Error(`tile ${this.address()}: no footprint found for cell ${key}`);
      if (cell.now !== null) points.push(pointFeature(cell.now, this.tile.z));
    }
    return tileBytes(this.polygons, points);
  }

  private cell({ cx, cy, key }: { cx: number; cy: number; key: string }): CellEdit {
    const known = this.cells.get(key);
    if (known !== undefined) return known;
    const cell: CellEdit = { cx, cy, left: [], entered: [] };
    this.cells.set(key, cell);
    return cell;
  }

  /** A point whose footprint is known: it stands for that footprint's cell. */
  private standsFor(point: DecodedFeature, feature: TileFeature): void {
    const place = placement(feature, this.tile, this.level);
    if (place?.kind !== 'cell') throw new Error(`tile ${this.address()}: point ${point.id} does not stand for a cell`);
    const cell = this.cells.get(place.key);
    if (cell) cell.point = point;
    else this.kept.push(point);
  }

  private address(): string {
    return `${this.tile.z}/${this.tile.x}/${this.tile.y}`;
  }
}

function decoded(layer: VectorTile['layers'][string] | undefined): DecodedFeature[] {
  return layer === undefined ? [] : Array.from({ length: layer.length }, (_, i) => withId(layer.feature(i)));
}

/** The stored tile is what the encoder made, which gives every feature its id. */
function withId(feature: VectorTileFeature): DecodedFeature {
  if (!hasId(feature)) throw new Error('A stored tile holds a feature without an id: not what the encoder made.');
  return feature;
}

function hasId(feature: VectorTileFeature): feature is DecodedFeature {
  return feature.id !== undefined;
}

/** A decoded point's one position. */
function positionOf(point: VectorTileFeature): Point {
  const position = point.loadGeometry()[0]?.[0];
  if (position === undefined) throw new Error(`A stored tile's point ${point.id} has no position.`);
  return position;
}

/** The feature a change is about: a change has a before, an after or both. */
function changedId({ before, after }: TileChange): number {
  const feature = before ?? after;
  if (feature === undefined) throw new Error('A tile change with neither a before nor an after.');
  return feature.id;
}

/**
 * The cells a point rounded to `at` may stand for: a centre's cell is its floor by the cell size,
 * and a centre within half a unit below a cell's edge rounds onto that edge.
 */
function possibleKeys(at: Point, cellUnits: number): string[] {
  const along = (v: number) => (v % cellUnits === 0 ? [v / cellUnits, v / cellUnits - 1] : [Math.floor(v / cellUnits)]);
  return along(at.x).flatMap((cx) => along(at.y).map((cy) => `${cx},${cy}`));
}
