// The vector tile tests' catalogue, their decoder, and their oracle: what a tile must hold,
// computed from the catalogue with the tests' own tile arithmetic (tile-math.ts), never
// with the server's code.
import assert from 'node:assert/strict';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { buildFindingCatalogue } from './finding-catalogue.js';
import { BUFFER, CELL, EXTENT, VISIBLE, centreOf, exteriorArea, footprintMeetsRect, projectFootprint } from './tile-math.js';

export const BIG_ID = 301;
export const PARTS_ID = 302;
/** More than CROWDED_ABOVE (500). */
export const CROWD = 1120;
/** The crowd's corner. */
export const CROWD_CORNER = [0.5, 51.6];
/** From this zoom a polygon carries every property; below, only id and category_id. */
export const FULL_PROPERTIES_ZOOM = 16;

export interface Tile {
  z: number;
  x: number;
  y: number;
}

export const tilePath = ({ z, x, y }: Tile) => `/tiles/features/${z}/${x}/${y}.mvt`;

const rect = (x1: number, y1: number, x2: number, y2: number): [number, number][] => [[x1, y1], [x2, y1], [x2, y2], [x1, y2], [x1, y1]];

/**
 * The finding-things catalogue, a large area (so that small zooms have something to draw),
 * a footprint of two parts, each with a courtyard, and a crowd: more footprints in one
 * spot than a tile is made of on request, so that some of its tiles are made at import.
 */
export function buildTileCatalogue(): Catalogue {
  const catalogue = buildFindingCatalogue();
  const area = { feature_type: 'GREATER_WHITECHAPEL' as const, b_number: null, b_name: null, street: null, postcode: 'E1', current: null, site: null, tags: [] };
  catalogue.features.push(
    { ...area, id: BIG_ID, address: 'Mile End', categories: [4], search_str: 'Mile End', geometry: { type: 'MultiPolygon', coordinates: [[rect(-0.06, 51.52, -0.03, 51.535)]] } },
    { ...area, id: PARTS_ID, address: 'Two yards', categories: [], search_str: 'Two yards',
      geometry: { type: 'MultiPolygon', coordinates: [
        [rect(0.37, 51.6, 0.38, 51.61), rect(0.372, 51.602, 0.378, 51.608)],
        [rect(0.40, 51.6, 0.41, 51.61), rect(0.402, 51.602, 0.408, 51.608)],
      ] } },
  );
  for (let i = 0; i < CROWD; i++) {
    const [lon, lat] = [CROWD_CORNER[0]! + (i % 40) * 0.000125, CROWD_CORNER[1]! + Math.floor(i / 40) * 0.000125];
    catalogue.features.push({
      id: 1000 + i, feature_type: 'WHITECHAPEL_BUILDING', b_number: String(i), b_name: i % 2 ? `Crowd ${i}` : null, street: 'Crowd Row',
      postcode: 'E1 1AA', address: `${i} Crowd Row`, current: null, site: null, categories: i % 3 ? [3] : [], tags: [],
      search_str: `${i} Crowd Row`, geometry: { type: 'MultiPolygon', coordinates: [[rect(lon, lat, lon + 0.0001, lat + 0.0001)]] },
    });
  }
  return catalogue;
}

export interface TileLayers {
  /** Footprints drawn as polygons. */
  features: VectorTileFeature[];
  /** Footprints too small to draw, one point per cell. */
  points: VectorTileFeature[];
}

export function decodeLayers(bytes: Buffer): TileLayers {
  const tile = new VectorTile(new PbfReader(bytes));
  const names = Object.keys(tile.layers);
  assert.ok(names.length > 0 && names.every((name) => name === 'features' || name === 'points'), `layers ${names}`);
  const read = (name: string) => {
    const layer = tile.layers[name];
    if (layer === undefined) return [];
    assert.equal(layer.extent, EXTENT);
    return Array.from({ length: layer.length }, (_, i) => layer.feature(i));
  };
  return { features: read('features'), points: read('points') };
}

/** A cell of the 2-pixel grid, with the small footprints whose centre lies in it. */
export interface ExpectedCell {
  /** Surely small, with a centre clear of the cell's and the buffer's edges. */
  sure: number[];
  /** Perhaps small (within rounding of the 2-pixel size), or near an edge. */
  maybe: number[];
}

export interface ExpectedTile {
  /** Polygons the tile must hold (surely visible, reaching into the buffered tile by more than rounding). */
  must: Set<number>;
  /** Polygons it may hold. */
  may: Set<number>;
  cells: Map<string, ExpectedCell>;
  /** Each small footprint's cell and centre in the tile's units. */
  smallAt: Map<number, { cell: string; centre: [number, number] }>;
}

const cellKey = ([x, y]: [number, number]) => `${Math.floor(x / CELL)},${Math.floor(y / CELL)}`;
const nearCellEdge = (v: number) => Math.abs(v / CELL - Math.round(v / CELL)) < 1e-6;

/** What the tile must and may hold, from the catalogue. */
export function expectedTile(features: readonly Feature[], { z, x, y }: Tile): ExpectedTile {
  const expected: ExpectedTile = { must: new Set(), may: new Set(), cells: new Map(), smallAt: new Map() };
  for (const f of features) {
    const projected = projectFootprint(f.geometry, z, x, y);
    const size = Math.sqrt(exteriorArea(projected));
    if (size >= VISIBLE - 0.5 && footprintMeetsRect(projected, [-BUFFER - 1, -BUFFER - 1, EXTENT + BUFFER + 1, EXTENT + BUFFER + 1])) expected.may.add(f.id);
    if (size >= VISIBLE + 0.5 && footprintMeetsRect(projected, [-BUFFER + 2, -BUFFER + 2, EXTENT + BUFFER - 2, EXTENT + BUFFER - 2])) expected.must.add(f.id);
    if (size < VISIBLE + 0.5) addSmall(expected, f.id, centreOf(projected), size < VISIBLE - 0.5);
  }
  return expected;
}

function addSmall(expected: ExpectedTile, id: number, centre: [number, number], small: boolean): void {
  const inside = (v: number, margin: number) => v >= -BUFFER + margin && v < EXTENT + BUFFER - margin;
  if (!inside(centre[0], -1) || !inside(centre[1], -1)) return;
  const cell = cellKey(centre);
  const entry = expected.cells.get(cell) ?? { sure: [], maybe: [] };
  expected.cells.set(cell, entry);
  entry.maybe.push(id);
  const clear = inside(centre[0], 1) && inside(centre[1], 1) && !nearCellEdge(centre[0]) && !nearCellEdge(centre[1]);
  if (small && clear) entry.sure.push(id);
  expected.smallAt.set(id, { cell, centre });
}

/** The properties a polygon carries at zoom z. */
export function expectedProperties(f: Feature, catalogue: Catalogue, z: number): Record<string, unknown> {
  const first = catalogue.categories.find((c) => c.id === f.categories[0]);
  if (z < FULL_PROPERTIES_ZOOM) return first ? { id: f.id, category_id: first.id } : { id: f.id };
  const properties: Record<string, unknown> = { id: f.id, feature_type: f.feature_type };
  if (first) Object.assign(properties, { category: first.name, category_id: first.id });
  if (f.b_name !== null) properties.b_name = f.b_name;
  return properties;
}

/** What a map gets of each feature of a layer: id, properties and rings of points. */
export function drawn(features: VectorTileFeature[]): unknown[] {
  return features.map((f) => ({ id: f.id, type: f.type, properties: { ...f.properties }, rings: f.loadGeometry().map((ring) => ring.map((p) => [p.x, p.y])) }));
}
