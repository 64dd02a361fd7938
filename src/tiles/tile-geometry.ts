// A footprint in a tile's own coordinates: projected to web mercator (a position past the
// grid's edge, up to a pole, put on the edge), clipped to the tile with its buffer, rounded
// to whole tile units, simplified to a fraction of a pixel, rings wound as the MVT spec
// wants (an exterior ring has positive area by the surveyor's formula in y-down tile
// coordinates). A ring that rounds to no area is left out, and a polygon with its exterior.
// Whether a footprint is drawn as a polygon at all is decided before, from its size (see
// encode.ts).
import Point from '@mapbox/point-geometry';
import type { MultiPolygon } from '../catalogue/format.js';
import { MAX_LATITUDE, SIMPLIFY_UNITS, TILE_BUFFER, TILE_EXTENT, type TileAddress } from './grid.js';

export interface TilePoint {
  x: number;
  y: number;
}
/** Whole tile units, closed (the last point repeats the first); Points, as vt-pbf's types ask. */
export type TileRing = Point[];
/** A footprint projected into a tile's units, not yet clipped nor rounded. */
export type Projected = TilePoint[][][];

export function projectFootprint(geometry: MultiPolygon, tile: TileAddress): Projected {
  const project = projector(tile);
  return geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(([lon, lat]) => project(lon!, lat!))));
}

/** A footprint's lon/lat box over every position: minLon, minLat, maxLon, maxLat (what PostGIS's ST_XMin… give). */
export type LonLatBox = [number, number, number, number];

export function lonLatBox(geometry: MultiPolygon): LonLatBox {
  const box: LonLatBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of geometry.coordinates) {
    for (const ring of polygon) {
      for (const [lon, lat] of ring) [box[0], box[1], box[2], box[3]] = [Math.min(box[0], lon!), Math.min(box[1], lat!), Math.max(box[2], lon!), Math.max(box[3], lat!)];
    }
  }
  return box;
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
      const sin = Math.sin((onGrid(ring[i]![1]!) * Math.PI) / 180);
      const qx = (((ring[i]![0]! + 180) / 360) * size - x) * TILE_EXTENT;
      const qy = ((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size - y) * TILE_EXTENT;
      if (i > 0) twice += px * qy - qx * py;
      [px, py] = [qx, qy];
    }
    // Closed rings repeat their first point, so the last edge is counted already.
    sum += Math.abs(twice) / 2;
  }
  return sum;
}

/** The rings of every polygon, exterior before its holes; empty when nothing lies in the tile. */
export function tileRings(projected: Projected): TileRing[] {
  return projected.flatMap((polygon) => {
    const [outer, ...holes] = polygon.map((ring) => clipRing(ring));
    const exterior = outer === undefined ? null : roundRing(outer);
    if (exterior === null) return [];
    const inner = holes.map(roundRing).filter((ring): ring is TileRing => ring !== null);
    return [wound(exterior, 1), ...inner.map((ring) => wound(ring, -1))];
  });
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
function roundRing(points: TilePoint[]): TileRing | null {
  const rounded: TileRing = [];
  for (const p of points) {
    const [x, y] = [Math.round(p.x), Math.round(p.y)];
    const last = rounded[rounded.length - 1];
    if (!last || last.x !== x || last.y !== y) rounded.push(new Point(x, y));
  }
  while (rounded.length > 1 && rounded[0]!.equals(rounded[rounded.length - 1]!)) rounded.pop();
  if (rounded.length < 3) return null;
  const ring = simplifyClosed(rounded);
  if (ring.length < 3 || area(ring) === 0) return null;
  return [...ring, ring[0]!.clone()];
}

/** Douglas–Peucker over an open list of a closed ring's points, split at its first point and the point farthest from it. */
function simplifyClosed(ring: Point[]): Point[] {
  let far = 1;
  for (let i = 2; i < ring.length; i++) if (ring[0]!.distSqr(ring[i]!) > ring[0]!.distSqr(ring[far]!)) far = i;
  const keep = new Uint8Array(ring.length);
  keep[0] = keep[far] = 1;
  markKept(ring, 0, far, keep);
  markKept([...ring, ring[0]!], far, ring.length, keep);
  return ring.filter((_, i) => keep[i] === 1);
}

function markKept(points: Point[], first: number, last: number, keep: Uint8Array): void {
  let [index, farthest] = [-1, SIMPLIFY_UNITS * SIMPLIFY_UNITS];
  for (let i = first + 1; i < last; i++) {
    const d = segmentDistSqr(points[i]!, points[first]!, points[last]!);
    if (d > farthest) [index, farthest] = [i, d];
  }
  if (index === -1) return;
  keep[index] = 1;
  markKept(points, first, index, keep);
  markKept(points, index, last, keep);
}

function segmentDistSqr(p: Point, a: Point, b: Point): number {
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
  return (p.x - a.x - t * dx) ** 2 + (p.y - a.y - t * dy) ** 2;
}

function wound(ring: TileRing, sign: 1 | -1): TileRing {
  return Math.sign(area(ring)) === sign ? ring : [...ring].reverse();
}

/** Twice the signed area (surveyor's formula); the ring may or may not repeat its first point. */
function area(ring: TilePoint[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    sum += a.x * b.y - b.x * a.y;
  }
  return sum;
}

/** Sutherland–Hodgman against the buffered tile square. */
function clipRing(points: TilePoint[]): TilePoint[] {
  const lo = -TILE_BUFFER;
  const hi = TILE_EXTENT + TILE_BUFFER;
  let ring = points;
  ring = clipEdge(ring, (p) => p.x >= lo, (a, b) => at(a, b, (lo - a.x) / (b.x - a.x)));
  ring = clipEdge(ring, (p) => p.x <= hi, (a, b) => at(a, b, (hi - a.x) / (b.x - a.x)));
  ring = clipEdge(ring, (p) => p.y >= lo, (a, b) => at(a, b, (lo - a.y) / (b.y - a.y)));
  ring = clipEdge(ring, (p) => p.y <= hi, (a, b) => at(a, b, (hi - a.y) / (b.y - a.y)));
  return ring;
}

function clipEdge(points: TilePoint[], inside: (p: TilePoint) => boolean, cross: (a: TilePoint, b: TilePoint) => TilePoint): TilePoint[] {
  const out: TilePoint[] = [];
  for (let i = 0; i < points.length; i++) {
    const current = points[i]!;
    const previous = points[(i + points.length - 1) % points.length]!;
    if (inside(current)) {
      if (!inside(previous)) out.push(cross(previous, current));
      out.push(current);
    } else if (inside(previous)) {
      out.push(cross(previous, current));
    }
  }
  return out;
}

function at(a: TilePoint, b: TilePoint, t: number): TilePoint {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
}
