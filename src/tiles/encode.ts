// Mapbox Vector Tiles from footprints, in JavaScript: the ONE encoder of both stores, for a
// tile made on request and for a crowded tile made at import alike, so that a footprint is
// drawn the same whichever store or path made its tile. The store hands over the footprints
// whose box meets the tile (in id order, in batches: tile-plans.ts); the builder keeps only
// what the tile will hold, so memory follows the tile's size, not the catalogue's.
// At each zoom a footprint 2 pixels across or more (the area of 2 × 2 pixels) is a polygon
// in the `features` layer (clipped, rounded, simplified: tile-geometry.ts); a smaller one
// falls into a cell of a 2-pixel grid, and each cell is one point in the `points` layer: the
// lowest id of the cell, and how many footprints it stands for (as tippecanoe drops the
// densest). Below FULL_PROPERTIES_ZOOM a polygon carries only id and category_id: at zoom 15
// the densest tile holds 11,000 footprints, every one visible, and names would take it past
// 500 KB. Which properties, in which order, from which zoom: layers.ts. A stored tile is
// edited with the same pieces (edit.ts).
import { fromVectorTileJs, type VectorTileFeatureLike, type VectorTileLayerLike } from '@maplibre/vt-pbf';
import Point from '@mapbox/point-geometry';
import type { FeatureType, MultiPolygon } from '../catalogue/format.js';
import { CELL_UNITS, TILE_BUFFER, TILE_EXTENT, VISIBLE_UNITS, type TileAddress } from './grid.js';
import { POINT_LAYER, POLYGON_LAYER, fieldsAt } from './layers.js';
import { boxCentre, exteriorArea, lonLatBox, projectFootprint, tileRings, type LonLatBox, type TileRing } from './tile-geometry.js';

/** What a tile carries of a feature: its footprint and the properties a map styles by. */
export interface TileFeature {
  id: number;
  feature_type: FeatureType;
  b_name: string | null;
  /** The first category's name and id, null when the feature has none. */
  category: string | null;
  category_id: number | null;
  /** Null when the store knew the footprint to be under 2 pixels across: then its box is given. */
  geometry: MultiPolygon | null;
  /** Its lon/lat box over every position; computed from the geometry when not given. */
  box?: LonLatBox;
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

/** The encoder's one decision for a footprint: measured, then a polygon from 2 pixels across, else a point of its cell if its centre lies in the buffer. */
export function placement(feature: TileFeature, tile: TileAddress): Placement {
  const { geometry } = feature;
  if (geometry !== null && Math.sqrt(exteriorArea(geometry, tile)) >= VISIBLE_UNITS) {
    const rings = tileRings(projectFootprint(geometry, tile));
    return rings.length > 0 ? { kind: 'polygon', rings } : null;
  }
  const box = feature.box ?? (geometry === null ? null : lonLatBox(geometry));
  if (box === null) throw new Error(`Feature ${feature.id} came with neither a footprint nor a box.`);
  const { x, y } = boxCentre(box, tile);
  const centre = new Point(x, y);
  if (!insideBuffer(centre)) return null;
  const [cx, cy] = [Math.floor(x / CELL_UNITS), Math.floor(y / CELL_UNITS)];
  return { kind: 'cell', cx, cy, key: `${cx},${cy}`, centre };
}

export class TileBuilder {
  private readonly polygons: VectorTileFeatureLike[] = [];
  private readonly cells = new Map<string, Cell>();

  constructor(private readonly tile: TileAddress) {}

  add(feature: TileFeature): void {
    const place = placement(feature, this.tile);
    if (place?.kind === 'polygon') this.polygons.push(polygonFeature(feature, place.rings, this.tile.z));
    else if (place?.kind === 'cell') this.addToCell(feature, place.key, place.centre);
  }

  /** The tile's bytes, or null when nothing lies in it. */
  finish(): Buffer | null {
    return tileBytes(this.polygons, [...this.cells.values()].map((cell) => pointFeature(cell, this.tile.z)));
  }

  private addToCell(feature: TileFeature, key: string, centre: Point): void {
    const cell = this.cells.get(key);
    if (cell === undefined) this.cells.set(key, { id: feature.id, values: pointValues(feature), at: centre.round(), count: 1 });
    else {
      cell.count += 1;
      if (feature.id < cell.id) Object.assign(cell, { id: feature.id, values: pointValues(feature), at: centre.round() });
    }
  }
}

/** The tile of footprints met one at a time, or null when none lies in it. */
export function encodeTile(tile: TileAddress, features: Iterable<TileFeature>): Buffer | null {
  const builder = new TileBuilder(tile);
  for (const feature of features) builder.add(feature);
  return builder.finish();
}

/** The tile's bytes: each layer's features in id order, a layer without any left out; null when both are empty. */
export function tileBytes(polygons: VectorTileFeatureLike[], points: VectorTileFeatureLike[]): Buffer | null {
  if (polygons.length === 0 && points.length === 0) return null;
  const byId = (a: { id?: number }, b: { id?: number }) => a.id! - b.id!;
  const layers: Record<string, VectorTileLayerLike> = {};
  if (polygons.length > 0) layers[POLYGON_LAYER.id] = layer(POLYGON_LAYER.id, polygons.sort(byId));
  if (points.length > 0) layers[POINT_LAYER.id] = layer(POINT_LAYER.id, points.sort(byId));
  return Buffer.from(fromVectorTileJs({ layers }));
}

function insideBuffer({ x, y }: Point): boolean {
  return x >= -TILE_BUFFER && x < TILE_EXTENT + TILE_BUFFER && y >= -TILE_BUFFER && y < TILE_EXTENT + TILE_BUFFER;
}

function layer(name: string, features: VectorTileFeatureLike[]): VectorTileLayerLike {
  return { version: 2, name, extent: TILE_EXTENT, length: features.length, feature: (i: number) => features[i]! };
}

/** The layer's fields carried at the zoom, in their declared order, a null one left out. */
function properties(layer: typeof POLYGON_LAYER, z: number, value: (name: string, perCell: boolean) => unknown): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, field] of fieldsAt(layer, z)) {
    const v = value(name, field.perCell === true);
    if (v !== null && v !== undefined) out[name] = v as string | number;
  }
  return out;
}

export function polygonFeature(feature: TileFeature, rings: TileRing[], z: number): VectorTileFeatureLike {
  const values = feature as unknown as Record<string, unknown>;
  return { id: feature.id, type: 3, properties: properties(POLYGON_LAYER, z, (name) => values[name]), extent: TILE_EXTENT, loadGeometry: () => rings };
}

/** What a cell keeps of the footprint standing for it: the values the points layer carries (not its footprint). */
export function pointValues(feature: TileFeature): Record<string, unknown> {
  const values = feature as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(POINT_LAYER.fields).filter(([, field]) => !field.perCell).map(([name]) => [name, values[name]]));
}

export function pointFeature(cell: Cell, z: number): VectorTileFeatureLike {
  return { id: cell.id, type: 1, properties: properties(POINT_LAYER, z, (name, perCell) => (perCell ? cell.count : cell.values[name])), extent: TILE_EXTENT, loadGeometry: () => [[cell.at]] };
}
