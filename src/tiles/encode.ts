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
// 500 KB.
import { fromVectorTileJs, type VectorTileFeatureLike, type VectorTileLayerLike } from '@maplibre/vt-pbf';
import Point from '@mapbox/point-geometry';
import type { FeatureType, MultiPolygon } from '../catalogue/format.js';
import { CELL_UNITS, FULL_PROPERTIES_ZOOM, TILE_BUFFER, TILE_EXTENT, TILE_LAYER, TILE_POINT_LAYER, VISIBLE_UNITS, type TileAddress } from './grid.js';
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

/** A cell of small footprints: the one with the lowest id stands for the others. */
interface Cell {
  id: number;
  category_id: number | null;
  at: Point;
  count: number;
}

export class TileBuilder {
  private readonly polygons: VectorTileFeatureLike[] = [];
  private readonly cells = new Map<string, Cell>();

  constructor(private readonly tile: TileAddress) {}

  add(feature: TileFeature): void {
    const { geometry } = feature;
    if (geometry !== null && Math.sqrt(exteriorArea(geometry, this.tile)) >= VISIBLE_UNITS) {
      const rings = tileRings(projectFootprint(geometry, this.tile));
      if (rings.length > 0) this.polygons.push(polygonFeature(feature, rings, this.tile.z >= FULL_PROPERTIES_ZOOM));
      return;
    }
    const box = feature.box ?? (geometry === null ? null : lonLatBox(geometry));
    if (box === null) throw new Error(`Feature ${feature.id} came with neither a footprint nor a box.`);
    const { x, y } = boxCentre(box, this.tile);
    const centre = new Point(x, y);
    if (insideBuffer(centre)) this.addToCell(feature, centre);
  }

  /** The tile's bytes, or null when nothing lies in it. */
  finish(): Buffer | null {
    if (this.polygons.length === 0 && this.cells.size === 0) return null;
    const byId = (a: { id?: number }, b: { id?: number }) => a.id! - b.id!;
    const points = [...this.cells.values()].sort(byId).map(pointFeature);
    const layers: Record<string, VectorTileLayerLike> = {};
    if (this.polygons.length > 0) layers[TILE_LAYER] = layer(TILE_LAYER, this.polygons.sort(byId));
    if (points.length > 0) layers[TILE_POINT_LAYER] = layer(TILE_POINT_LAYER, points);
    return Buffer.from(fromVectorTileJs({ layers }));
  }

  private addToCell(feature: TileFeature, centre: Point): void {
    const key = `${Math.floor(centre.x / CELL_UNITS)},${Math.floor(centre.y / CELL_UNITS)}`;
    const cell = this.cells.get(key);
    const at = centre.round();
    if (cell === undefined) this.cells.set(key, { id: feature.id, category_id: feature.category_id, at, count: 1 });
    else {
      cell.count += 1;
      if (feature.id < cell.id) Object.assign(cell, { id: feature.id, category_id: feature.category_id, at });
    }
  }
}

/** The tile of footprints met one at a time, or null when none lies in it. */
export function encodeTile(tile: TileAddress, features: Iterable<TileFeature>): Buffer | null {
  const builder = new TileBuilder(tile);
  for (const feature of features) builder.add(feature);
  return builder.finish();
}

function insideBuffer({ x, y }: Point): boolean {
  return x >= -TILE_BUFFER && x < TILE_EXTENT + TILE_BUFFER && y >= -TILE_BUFFER && y < TILE_EXTENT + TILE_BUFFER;
}

function layer(name: string, features: VectorTileFeatureLike[]): VectorTileLayerLike {
  return { version: 2, name, extent: TILE_EXTENT, length: features.length, feature: (i: number) => features[i]! };
}

/** The properties in this order, a null one left out; below FULL_PROPERTIES_ZOOM only what styles a footprint. */
function polygonFeature(feature: TileFeature, rings: TileRing[], full: boolean): VectorTileFeatureLike {
  const properties: Record<string, string | number> = { id: feature.id };
  if (full) properties.feature_type = feature.feature_type;
  if (full && feature.category !== null) properties.category = feature.category;
  if (feature.category_id !== null) properties.category_id = feature.category_id;
  if (full && feature.b_name !== null) properties.b_name = feature.b_name;
  return { id: feature.id, type: 3, properties, extent: TILE_EXTENT, loadGeometry: () => rings };
}

function pointFeature(cell: Cell): VectorTileFeatureLike {
  const properties: Record<string, number> = { id: cell.id, count: cell.count };
  if (cell.category_id !== null) properties.category_id = cell.category_id;
  return { id: cell.id, type: 1, properties, extent: TILE_EXTENT, loadGeometry: () => [[cell.at]] };
}
