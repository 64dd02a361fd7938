// The web-mercator tile grid (XYZ, as MapLibre and PostGIS's ST_TileEnvelope number it):
// which tiles exist, and the lon/lat box a tile covers.
import type { Box } from '../search/box.js';

/**
 * Zoom 22 is the deepest a web map asks for (MapLibre's default maximum): a unit of a
 * 4096-wide tile is then under a millimetre, far below any footprint's precision.
 */
export const MAX_TILE_ZOOM = 22;
export const TILE_EXTENT = 4096;
/** Geometry kept beyond each edge, in tile units, so that strokes join across tiles. */
export const TILE_BUFFER = 64;
export const TILE_LAYER = 'features';
/** The layer of footprints too small to draw at the tile's zoom: one point per cell of the grid below. */
export const TILE_POINT_LAYER = 'points';

/** A pixel of the zoom, as tile pyramids count them (256 to a tile, as tippecanoe does): 16 units. */
export const PIXEL_UNITS = TILE_EXTENT / 256;
/** A footprint of this many units across (the area of 2 × 2 pixels) or more is drawn as a polygon; smaller ones as points. */
export const VISIBLE_UNITS = 2 * PIXEL_UNITS;
/** Small footprints whose centres share a cell of this size (2 × 2 pixels) are one point, with their count. */
export const CELL_UNITS = 2 * PIXEL_UNITS;
/** From this zoom polygons carry every property (feature_type, category, b_name); below it only id and category_id. */
export const FULL_PROPERTIES_ZOOM = 16;
/** Douglas–Peucker tolerance: an eighth of a pixel, so that simplifying shows nowhere. */
export const SIMPLIFY_UNITS = PIXEL_UNITS / 8;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

export function isTileAddress({ z, x, y }: TileAddress): boolean {
  const inGrid = (n: number, size: number) => Number.isInteger(n) && n >= 0 && n < size;
  return inGrid(z, MAX_TILE_ZOOM + 1) && inGrid(x, 2 ** z) && inGrid(y, 2 ** z);
}

/** Longitude of a (fractional) tile column. */
function lonOf(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/**
 * The grid's edge: web mercator reaches the poles only at infinity, so the world's square ends
 * at this latitude (85.0511…°). Catalogues may hold positions up to ±90: they are drawn on the
 * edge (tile-geometry.ts clamps them), and a box reaching the edge reaches the pole.
 */
export const MAX_LATITUDE = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;

/**
 * Latitude of a (fractional) tile row: the inverse of the mercator projection; at or beyond
 * the top or bottom edge, the pole, so that a tile or cell on the edge holds what lies past it.
 */
function latOf(y: number, z: number): number {
  if (y <= 0) return 90;
  if (y >= 2 ** z) return -90;
  return (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
}

/** The lon/lat box of a tile widened by `buffer` tile units on each side. */
export function tileBox({ z, x, y }: TileAddress, buffer = TILE_BUFFER): Box {
  const margin = buffer / TILE_EXTENT;
  return [lonOf(x - margin, z), latOf(y + 1 + margin, z), lonOf(x + 1 + margin, z), latOf(y - margin, z)];
}

/**
 * The lon/lat box of a cell of the points grid (cx, cy: squares of cellUnits counted from the
 * tile's corner, as encode.ts places a centre), widened by a unit each side: every footprint
 * whose centre lies in the cell has a box meeting it.
 */
export function cellBox({ z, x, y }: TileAddress, cx: number, cy: number, cellUnits = CELL_UNITS): Box {
  const at = (units: number) => units / TILE_EXTENT;
  return [lonOf(x + at(cx * cellUnits - 1), z), latOf(y + at((cy + 1) * cellUnits + 1), z), lonOf(x + at((cx + 1) * cellUnits + 1), z), latOf(y + at(cy * cellUnits - 1), z)];
}
