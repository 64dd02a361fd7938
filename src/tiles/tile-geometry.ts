// A footprint in a tile's own coordinates: projected to web mercator (a position past the
// grid's edge, up to a pole, put on the edge), clipped to the tile with its buffer, rounded
// to whole tile units, simplified to a fraction of a pixel, rings wound as the MVT spec
// wants (an exterior ring has positive area by the surveyor's formula in y-down tile
// coordinates). A ring that rounds to no area is left out, and a polygon with its exterior.
// Whether a footprint is drawn as a polygon at all is decided before, from its size (see
// encode.ts).
import Point from '@mapbox/point-geometry';
import type { MultiPolygon, Position } from '../catalogue/format.js';
import { outOfBounds } from '../invariant.js';
import { MAX_LATITUDE, SIMPLIFY_UNITS, TILE_BUFFER, TILE_EXTENT, type TileAddress } from './grid.js';

export interface TilePoint {
  x: number;
  y: number;
}
/** Whole tile units, closed (the last point repeats the first); Points, as vt-pbf's types ask. */
export type TileRing = Point[];
/** A ring projected into a tile's units, not yet clipped nor rounded: x and y of each position in turn. */
type ProjectedRing = Float64Array;

/**
 * The rings of every polygon of a footprint in the tile, exterior before its holes; empty
 * when nothing lies in it. Positions are kept as flat numbers until the ones drawn are known:
 * a tile made on request passes up to 10,000 of them, and an object for each was most of its
 * garbage.
 */
export function footprintRings(geometry: MultiPolygon, tile: TileAddress): TileRing[] {
  const rings: TileRing[] = [];
  for (const polygon of geometry.coordinates) {
    const [outer, ...holes] = polygon.map((ring) => clipRing(projectRing(ring, tile)));
    const exterior = outer === undefined ? null : roundRing(outer);
    if (exterior === null) continue;
    rings.push(wound(exterior, 1));
    for (const hole of holes) {
      const inner = roundRing(hole);
      if (inner !== null) rings.push(wound(inner, -1));
    }
  }
  return rings;
}

function projectRing(ring: readonly Position[], { z, x, y }: TileAddress): ProjectedRing {
  const size = 2 ** z;
  const out = new Float64Array(ring.length * 2);
  for (let i = 0; i < ring.length; i++) {
    const position = ring[i];
    if (position === undefined) outOfBounds();
    const [lon, lat] = position;
    const sin = Math.sin((onGrid(lat) * Math.PI) / 180);
    const row = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size;
    out[2 * i] = (((lon + 180) / 360) * size - x) * TILE_EXTENT;
    out[2 * i + 1] = (row - y) * TILE_EXTENT;
  }
  return out;
}

/** A footprint's lon/lat box over every position: minLon, minLat, maxLon, maxLat (what PostGIS's ST_XMin… give). */
export type LonLatBox = [number, number, number, number];

export function lonLatBox(geometry: MultiPolygon): LonLatBox {
  let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of geometry.coordinates) {
    for (const ring of polygon) {
      for (const [lon, lat] of ring) {
        minLon = Math.min(minLon, lon);
        minLat = Math.min(minLat, lat);
        maxLon = Math.max(maxLon, lon);
        maxLat = Math.max(maxLat, lat);
      }
    }
  }
  return [minLon, minLat, maxLon, maxLat];
}

/** The centre of a lon/lat box in a tile's units: a small footprint's point, the same from a geometry or from a store's box. */
export function boxCentre([minLon, minLat, maxLon, maxLat]: LonLatBox, tile: TileAddress): TilePoint {
  const project = projector(tile);
  const [a, b] = [project(minLon, maxLat), project(maxLon, minLat)];
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/**
 * The area of the footprint's exteriors in the tile's units (square units), in one pass that
 * allocates nothing: at low zooms nearly every footprint is measured only, to be found smaller
 * than 2 pixels.
 */
export function exteriorArea(geometry: MultiPolygon, { z, x, y }: TileAddress): number {
  const size = 2 ** z;
  let sum = 0;
  for (const polygon of geometry.coordinates) {
    const ring = polygon[0] ?? [];
    let twice = 0;
    let [px, py] = [0, 0];
    for (let i = 0; i < ring.length; i++) {
      const position = ring[i];
      if (position === undefined) outOfBounds();
      const sin = Math.sin((onGrid(position[1]) * Math.PI) / 180);
      const qx = (((position[0] + 180) / 360) * size - x) * TILE_EXTENT;
      const qy = ((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size - y) * TILE_EXTENT;
      if (i > 0) twice += px * qy - qx * py;
      [px, py] = [qx, qy];
    }
    // Closed rings repeat their first point, so the last edge is counted already.
    sum += Math.abs(twice) / 2;
  }
  return sum;
}

/**
 * A latitude on the grid: past its edge (MAX_LATITUDE, 85.05°) a position is put on the edge,
 * where mercator would put it at infinity; so a footprint reaching a pole is drawn up to the
 * edge at every zoom, not lost. (An edge of a ring crossing it then ends at its outer
 * vertex's longitude, not where it crosses: exact enough for a shape no map shows.)
 */
function onGrid(lat: number): number {
  return Math.min(MAX_LATITUDE, Math.max(-MAX_LATITUDE, lat));
}

function projector({ z, x, y }: TileAddress): (lon: number, lat: number) => TilePoint {
  const size = 2 ** z;
  return (lon, lat) => {
    const sin = Math.sin((onGrid(lat) * Math.PI) / 180);
    const row = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size;
    return { x: (((lon + 180) / 360) * size - x) * TILE_EXTENT, y: (row - y) * TILE_EXTENT };
  };
}

/** Whole units, repeated points dropped, simplified; null when fewer than three distinct points or no area remain. */
function roundRing(points: ProjectedRing): TileRing | null {
  const rounded = new Int32Array(points.length);
  let n = 0;
  for (let i = 0; i < points.length; i += 2) {
    const px = points[i], py = points[i + 1];
    if (px === undefined || py === undefined) outOfBounds();
    const x = Math.round(px);
    const y = Math.round(py);
    if (n === 0 || rounded[2 * n - 2] !== x || rounded[2 * n - 1] !== y) {
      rounded[2 * n] = x;
      rounded[2 * n + 1] = y;
      n++;
    }
  }
  while (n > 1 && rounded[0] === rounded[2 * n - 2] && rounded[1] === rounded[2 * n - 1]) n--;
  if (n < 3) return null;
  const ring = simplifyClosed(rounded.subarray(0, 2 * n));
  const [first] = ring;
  if (first === undefined || ring.length < 3 || area(ring) === 0) return null;
  return [...ring, first.clone()];
}

/** Douglas–Peucker over an open list of a closed ring's points (x and y in turn), split at its first point and the point farthest from it. */
function simplifyClosed(ring: Int32Array): Point[] {
  const n = ring.length / 2;
  const x0 = ring[0], y0 = ring[1];
  if (x0 === undefined || y0 === undefined) outOfBounds();
  const distSqr = (i: number) => {
    const x = ring[2 * i], y = ring[2 * i + 1];
    if (x === undefined || y === undefined) outOfBounds();
    return (x - x0) ** 2 + (y - y0) ** 2;
  };
  let far = 1;
  for (let i = 2; i < n; i++) if (distSqr(i) > distSqr(far)) far = i;
  const keep = new Uint8Array(n);
  keep[0] = keep[far] = 1;
  markKept(ring, 0, far, keep);
  // The closing stretch, from the farthest point back round to the first (index n is the first again).
  markKept(ring, far, n, keep);
  const kept: Point[] = [];
  for (let i = 0; i < n; i++) {
    if (keep[i] !== 1) continue;
    const x = ring[2 * i], y = ring[2 * i + 1];
    if (x === undefined || y === undefined) outOfBounds();
    kept.push(new Point(x, y));
  }
  return kept;
}

function markKept(ring: Int32Array, first: number, last: number, keep: Uint8Array): void {
  let index = -1;
  let farthest = SIMPLIFY_UNITS * SIMPLIFY_UNITS;
  for (let i = first + 1; i < last; i++) {
    const d = segmentDistSqr(ring, i, first, last);
    if (d > farthest) {
      index = i;
      farthest = d;
    }
  }
  if (index === -1) return;
  keep[index] = 1;
  markKept(ring, first, index, keep);
  markKept(ring, index, last, keep);
}

/** The squared distance of point p from the segment a–b; an index past the ring's last point is its first. */
function segmentDistSqr(ring: Int32Array, p: number, a: number, b: number): number {
  const end = b === ring.length / 2 ? 0 : 2 * b;
  const px = ring[2 * p], py = ring[2 * p + 1];
  const ax = ring[2 * a], ay = ring[2 * a + 1];
  const bx = ring[end], by = ring[end + 1];
  if (px === undefined || py === undefined || ax === undefined || ay === undefined || bx === undefined || by === undefined) outOfBounds();
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length));
  return (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2;
}

function wound(ring: TileRing, sign: 1 | -1): TileRing {
  return Math.sign(area(ring)) === sign ? ring : [...ring].reverse();
}

/** Twice the signed area (surveyor's formula); the ring may or may not repeat its first point. */
function area(ring: TilePoint[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    if (a === undefined || b === undefined) outOfBounds();
    sum += a.x * b.y - b.x * a.y;
  }
  return sum;
}

/** Sutherland–Hodgman against the buffered tile square; a ring wholly inside (most, from zoom 14 on) is already its own result. */
function clipRing(points: ProjectedRing): ProjectedRing {
  const lo = -TILE_BUFFER;
  const hi = TILE_EXTENT + TILE_BUFFER;
  if (within(points, lo, hi)) return points;
  return clipEdge(clipEdge(clipEdge(clipEdge(points, 0, lo, false), 0, hi, true), 1, lo, false), 1, hi, true);
}

function within(values: Float64Array, lo: number, hi: number): boolean {
  for (const v of values) if (!(v >= lo && v <= hi)) return false;
  return true;
}

/** One edge of the square: the side of `bound` on axis 0 (x) or 1 (y) that is kept is below it (upTo) or above it. */
function clipEdge(points: ProjectedRing, axis: 0 | 1, bound: number, upTo: boolean): ProjectedRing {
  const n = points.length / 2;
  // Each edge of the ring gives at most two points.
  const out = new Float64Array(4 * n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const previous = (i + n - 1) % n;
    const here = points[2 * i + axis], before = points[2 * previous + axis];
    const ax = points[2 * previous], ay = points[2 * previous + 1], bx = points[2 * i], by = points[2 * i + 1];
    if (here === undefined || before === undefined || ax === undefined || ay === undefined || bx === undefined || by === undefined) outOfBounds();
    const inside = upTo ? here <= bound : here >= bound;
    const wasInside = upTo ? before <= bound : before >= bound;
    if (inside !== wasInside) {
      // Where the edge from the previous point crosses the bound.
      const t = (bound - before) / (here - before);
      out[m++] = ax + (bx - ax) * t;
      out[m++] = ay + (by - ay) * t;
    }
    if (inside) {
      out[m++] = bx;
      out[m++] = by;
    }
  }
  return out.subarray(0, m);
}
