// A footprint in a tile's own coordinates: projected to web mercator, clipped to the tile
// with its buffer, rounded to whole tile units, rings wound as the MVT spec wants (an
// exterior ring has positive area by the surveyor's formula in y-down tile coordinates).
// A ring that rounds to no area is left out, and a polygon with its exterior, as PostGIS's
// ST_AsMVTGeom does. Nothing is simplified: that, and dropping footprints smaller than a
// pixel, would go in tileRings too (a footprint left with no ring is not in the tile).
import Point from '@mapbox/point-geometry';
import type { MultiPolygon } from '../catalogue/format.js';
import { TILE_BUFFER, TILE_EXTENT, type TileAddress } from './grid.js';

export interface TilePoint {
  x: number;
  y: number;
}
/** Whole tile units, closed (the last point repeats the first); Points, as vt-pbf's types ask. */
export type TileRing = Point[];

/** The rings of every polygon, exterior before its holes; empty when nothing lies in the tile. */
export function tileRings(geometry: MultiPolygon, tile: TileAddress): TileRing[] {
  const project = projector(tile);
  return geometry.coordinates.flatMap((polygon) => {
    const [outer, ...holes] = polygon.map((ring) => clipRing(ring.map(([lon, lat]) => project(lon!, lat!))));
    const exterior = outer === undefined ? null : roundRing(outer);
    if (exterior === null) return [];
    const inner = holes.map(roundRing).filter((ring): ring is TileRing => ring !== null);
    return [wound(exterior, 1), ...inner.map((ring) => wound(ring, -1))];
  });
}

function projector({ z, x, y }: TileAddress): (lon: number, lat: number) => TilePoint {
  const size = 2 ** z;
  return (lon, lat) => {
    const sin = Math.sin((lat * Math.PI) / 180);
    const row = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size;
    return { x: (((lon + 180) / 360) * size - x) * TILE_EXTENT, y: (row - y) * TILE_EXTENT };
  };
}

/** Whole units, repeated points dropped; null when fewer than three distinct points or no area remain. */
function roundRing(points: TilePoint[]): TileRing | null {
  const ring: TileRing = [];
  for (const p of points) {
    const [x, y] = [Math.round(p.x), Math.round(p.y)];
    const last = ring[ring.length - 1];
    if (!last || last.x !== x || last.y !== y) ring.push(new Point(x, y));
  }
  while (ring.length > 1 && ring[0]!.x === ring[ring.length - 1]!.x && ring[0]!.y === ring[ring.length - 1]!.y) ring.pop();
  if (ring.length < 3 || area(ring) === 0) return null;
  return [...ring, ring[0]!.clone()];
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
