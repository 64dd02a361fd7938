// Tile arithmetic written for the tests, independently of the server's: lon/lat → web
// mercator tile units, and whether a footprint reaches into a (buffered) tile.
import type { MultiPolygon } from '../../src/catalogue/format.js';

export const EXTENT = 4096;
export const BUFFER = 64;

type Point = [number, number];
/** minX, minY, maxX, maxY in units of one tile's extent. */
export type Rect = [number, number, number, number];

/** A lon/lat position in units of tile (z, x, y): 0..4096 inside it, y growing southwards. */
export function toTileUnits([lon, lat]: readonly number[], z: number, x: number, y: number): Point {
  const n = 2 ** z;
  const worldX = ((lon! + 180) / 360) * n;
  const rad = (lat! * Math.PI) / 180;
  const worldY = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n;
  return [(worldX - x) * EXTENT, (worldY - y) * EXTENT];
}

/** The tile a lon/lat position falls in. */
export function tileOf(position: readonly number[], z: number): { z: number; x: number; y: number } {
  const [ux, uy] = toTileUnits(position, z, 0, 0);
  return { z, x: Math.floor(ux / EXTENT), y: Math.floor(uy / EXTENT) };
}

export function projectFootprint(geometry: MultiPolygon, z: number, x: number, y: number): Point[][][] {
  return geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map((p) => toTileUnits(p, z, x, y))));
}

/** Does a projected footprint meet a rectangle (edges crossing, a vertex inside, or the rectangle inside)? */
export function footprintMeetsRect(polygons: Point[][][], rect: Rect): boolean {
  return polygons.some((rings) => polygonMeetsRect(rings, rect));
}

function polygonMeetsRect(rings: Point[][], [minX, minY, maxX, maxY]: Rect): boolean {
  const inside = ([px, py]: Point) => px >= minX && px <= maxX && py >= minY && py <= maxY;
  if (rings.some((ring) => ring.some(inside))) return true;
  const corners: Point[] = [[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY]];
  const crosses = rings.some((ring) => ring.some((a, i) => i > 0 && corners.some((c, j) => segmentsCross(ring[i - 1]!, a, c, corners[(j + 1) % 4]!))));
  return crosses || (inRing(corners[0]!, rings[0]!) && !rings.slice(1).some((hole) => inRing(corners[0]!, hole)));
}

function segmentsCross(p1: Point, p2: Point, q1: Point, q2: Point): boolean {
  const side = (a: Point, b: Point, c: Point) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  return side(p1, p2, q1) !== side(p1, p2, q2) && side(q1, q2, p1) !== side(q1, q2, p2);
}

function inRing([px, py]: Point, ring: Point[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The square root of the largest outer ring's area: below a unit or so, encoders drop a footprint. */
export function footprintSize(polygons: Point[][][]): number {
  const area = (ring: Point[]) => Math.abs(ring.reduce((sum, [x1, y1], i) => {
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    return sum + x1 * y2 - x2 * y1;
  }, 0)) / 2;
  return Math.sqrt(Math.max(...polygons.map((rings) => area(rings[0]!))));
}

export function boundsOf(points: readonly Point[]): Rect {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Units of a tile per pixel (256 pixels to a tile), and the sizes the issue sets: drawn from 2 pixels across, one point per 2 × 2 pixels. */
export const PIXEL = EXTENT / 256;
export const VISIBLE = 2 * PIXEL;
export const CELL = 2 * PIXEL;

/** The area of the exterior rings, summed over the parts (tile units squared). */
export function exteriorArea(polygons: Point[][][]): number {
  return polygons.reduce((sum, rings) => sum + ringArea(rings[0]!), 0);
}

function ringArea(ring: Point[]): number {
  return Math.abs(ring.reduce((sum, [x1, y1], i) => {
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    return sum + x1 * y2 - x2 * y1;
  }, 0)) / 2;
}

/** The centre of a projected footprint's box. */
export function centreOf(polygons: Point[][][]): Point {
  const [minX, minY, maxX, maxY] = boundsOf(polygons.flatMap((rings) => rings[0]!));
  return [(minX + maxX) / 2, (minY + maxY) / 2];
}
