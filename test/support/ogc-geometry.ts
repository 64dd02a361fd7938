// Exact intersection of the catalogue's footprints with a box, a point or a polygon, written
// here for the OGC tests so their expected answers do not come from the code under test
// (SQLite's check uses turf, PostgreSQL PostGIS): two areas meet when an edge of one
// touches an edge of the other, or a vertex of one lies inside the other (holes excluded).
import type { MultiPolygon } from '../../src/catalogue/format.js';

export type Point = readonly [number, number];
/** Rings: the outer one first, then holes. */
export type Polygon = readonly (readonly Point[])[];

export function boxPolygon(west: number, south: number, east: number, north: number): Polygon {
  return [[[west, south], [east, south], [east, north], [west, north], [west, south]]];
}

function orientation(a: Point, b: Point, c: Point): number {
  const value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return value === 0 ? 0 : value > 0 ? 1 : -1;
}

function onSegment(a: Point, b: Point, p: Point): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

function segmentsMeet(p1: Point, p2: Point, q1: Point, q2: Point): boolean {
  const [o1, o2, o3, o4] = [orientation(p1, p2, q1), orientation(p1, p2, q2), orientation(q1, q2, p1), orientation(q1, q2, p2)];
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(p1, p2, q1)) || (o2 === 0 && onSegment(p1, p2, q2)) || (o3 === 0 && onSegment(q1, q2, p1)) || (o4 === 0 && onSegment(q1, q2, p2));
}

/** Strictly inside a ring, by the crossing count (boundary points are caught by the edge test). */
function insideRing(ring: readonly Point[], p: Point): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [a, b] = [ring[i]!, ring[j]!];
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

function onBoundary(polygon: Polygon, p: Point): boolean {
  return polygon.some((ring) => ring.some((a, i) => i > 0 && segmentsMeet(ring[i - 1]!, a, p, p)));
}

/** In the polygon's area: inside its outer ring and in none of its holes, or on a boundary. */
export function pointInPolygon(polygon: Polygon, p: Point): boolean {
  if (onBoundary(polygon, p)) return true;
  const [outer, ...holes] = polygon;
  return outer !== undefined && insideRing(outer, p) && !holes.some((hole) => insideRing(hole, p));
}

function edges(polygon: Polygon): [Point, Point][] {
  return polygon.flatMap((ring) => ring.slice(1).map((b, i): [Point, Point] => [ring[i]!, b]));
}

export function polygonsMeet(a: Polygon, b: Polygon): boolean {
  const edgesB = edges(b);
  if (edges(a).some(([p, q]) => edgesB.some(([r, s]) => segmentsMeet(p, q, r, s)))) return true;
  return a.some((ring) => ring.some((p) => pointInPolygon(b, p))) || b.some((ring) => ring.some((p) => pointInPolygon(a, p)));
}

export function footprintMeets(footprint: MultiPolygon, query: Polygon | Point): boolean {
  const parts = footprint.coordinates as unknown as Polygon[];
  if (typeof query[0] === 'number') return parts.some((part) => pointInPolygon(part, query as Point));
  return parts.some((part) => polygonsMeet(part, query as Polygon));
}
