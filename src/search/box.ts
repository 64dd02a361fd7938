// Does a MultiPolygon intersect a lon/lat box? A true polygon test (holes included),
// boundaries touching count, as PostGIS's ST_Intersects. SQLite's R*Tree narrows the
// candidates to footprints whose bounding box meets the box; this decides.
import { createRequire } from 'node:module';
import type booleanIntersectsType from '@turf/boolean-intersects';
import type { Geometry as GeoJsonGeometry } from 'geojson';
import type { MultiPolygon } from '../catalogue/format.js';
import type { Geometry, SpatialLiteral } from '../ogc/cql2/ast.js';
import { at, outOfBounds } from '../invariant.js';

export type Box = readonly [minX: number, minY: number, maxX: number, maxY: number];
type Point = readonly [x: number, y: number];
type Ring = readonly Point[];

export function multiPolygonIntersectsBox(geometry: MultiPolygon, box: Box): boolean {
  return geometry.coordinates.some((polygon) => polygonIntersectsBox(polygon, box));
}

function polygonIntersectsBox(rings: readonly Ring[], box: Box): boolean {
  const [minX, minY, maxX, maxY] = box;
  // A vertex of the polygon inside the box.
  if (rings.some((ring) => ring.some(([x, y]) => x >= minX && x <= maxX && y >= minY && y <= maxY))) return true;
  // An edge of the polygon crossing an edge of the box.
  const sw: Point = [minX, minY];
  const se: Point = [maxX, minY];
  const ne: Point = [maxX, maxY];
  const nw: Point = [minX, maxY];
  const boxEdges: readonly (readonly [Point, Point])[] = [[sw, se], [se, ne], [ne, nw], [nw, sw]];
  for (const ring of rings) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const p = ring[i];
      const q = ring[i + 1];
      if (p === undefined || q === undefined) outOfBounds();
      if (boxEdges.some(([a, b]) => segmentsIntersect(p, q, a, b))) return true;
    }
  }
  // No crossing: the box is wholly inside the polygon or wholly outside it (or in a hole).
  return insidePolygon(sw, rings);
}

function insidePolygon(point: Point, rings: readonly Ring[]): boolean {
  const [outer, ...holes] = rings;
  return outer !== undefined && insideRing(point, outer) && !holes.some((hole) => insideRing(point, hole));
}

/** Ray casting (even-odd). */
function insideRing([x, y]: Point, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const pi = ring[i];
    const pj = ring[j];
    if (pi === undefined || pj === undefined) outOfBounds();
    const [xi, yi] = pi;
    const [xj, yj] = pj;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function orientation(a: Point, b: Point, c: Point): number {
  const value = (b[1] - a[1]) * (c[0] - b[0]) - (b[0] - a[0]) * (c[1] - b[1]);
  return value === 0 ? 0 : value > 0 ? 1 : 2;
}

function onSegment(a: Point, b: Point, c: Point): boolean {
  return b[0] <= Math.max(a[0], c[0]) && b[0] >= Math.min(a[0], c[0]) && b[1] <= Math.max(a[1], c[1]) && b[1] >= Math.min(a[1], c[1]);
}

function segmentsIntersect(p1: Point, q1: Point, p2: Point, q2: Point): boolean {
  const o1 = orientation(p1, q1, p2);
  const o2 = orientation(p1, q1, q2);
  const o3 = orientation(p2, q2, p1);
  const o4 = orientation(p2, q2, q1);
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(p1, p2, q1)) || (o2 === 0 && onSegment(p1, q2, q1)) ||
    (o3 === 0 && onSegment(p2, p1, q2)) || (o4 === 0 && onSegment(p2, q1, q2));
}

type Polygons = readonly (readonly (readonly (readonly number[])[])[])[];

/** The bounding box of a footprint (for the R*Tree), or of any polygons' positions. */
export function boundingBox(geometry: { readonly coordinates: Polygons }): Box {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of geometry.coordinates) {
    for (const ring of polygon) {
      for (const position of ring) {
        const x = position[0];
        const y = position[1];
        if (x === undefined || y === undefined) outOfBounds();
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
  }
  return [minX, minY, maxX, maxY];
}

/** The box holding both boxes; either null, the other (a copy). */
export function widened(box: Box | null, other: Box | null): [number, number, number, number] | null {
  if (box === null || other === null) {
    const only = box ?? other;
    return only === null ? null : [only[0], only[1], only[2], only[3]];
  }
  return [Math.min(box[0], other[0]), Math.min(box[1], other[1]), Math.max(box[2], other[2]), Math.max(box[3], other[3])];
}

/** The lon/lat box of a filter's spatial literal: a BBOX's own (6 numbers: heights dropped), or the geometry's. */
export function literalBox(literal: SpatialLiteral): Box {
  if (literal.kind === 'bbox') {
    const v = literal.value;
    const [east, north] = v.length === 6 ? [at(v, 3), at(v, 4)] : [at(v, 2), at(v, 3)];
    return [at(v, 0), at(v, 1), east, north];
  }
  const g = literal.value;
  return boundingBox({ coordinates: g.type === 'Point' ? [[[g.coordinates]]] : g.type === 'Polygon' ? [g.coordinates] : g.coordinates });
}

/** A footprint against a filter's POINT, POLYGON or MULTIPOLYGON (turf's test; boundaries touching count, as PostGIS). */
export function multiPolygonIntersects(geometry: MultiPolygon, other: Geometry): boolean {
  booleanIntersects ??= loadBooleanIntersects();
  return booleanIntersects(geometry, other as GeoJsonGeometry);
}

function loadBooleanIntersects(): typeof booleanIntersectsType {
  const module: { default: typeof booleanIntersectsType } = createRequire(import.meta.url)('@turf/boolean-intersects');
  return module.default;
}

/**
 * Loaded when a filter first needs it: turf's forty-odd modules cost every process that
 * imports the store (serve, import, …) some 70 ms of CPU, and few filters have a geometry.
 */
let booleanIntersects: typeof booleanIntersectsType | undefined;

/**
 * A footprint as little-endian float64s, for SQLite's exact box test (`features.outline`,
 * sqlite.ts `intersects_box`): the number of polygons; per polygon its number of rings; per
 * ring its number of points, then x and y of each. Read back without parsing text: parsing
 * the GeoJSON of every footprint across a box's edge was a quarter of a bbox page's time.
 */
export function encodeOutline(geometry: MultiPolygon): Buffer {
  const numbers: number[] = [geometry.coordinates.length];
  for (const polygon of geometry.coordinates) {
    numbers.push(polygon.length);
    for (const ring of polygon) {
      numbers.push(ring.length);
      for (const [x, y] of ring) numbers.push(x, y);
    }
  }
  const bytes = Buffer.alloc(numbers.length * 8);
  numbers.forEach((n, i) => bytes.writeDoubleLE(n, i * 8));
  return bytes;
}

/** encodeOutline's bytes → the footprint's polygons. */
export function decodeOutline(bytes: Uint8Array): MultiPolygon {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const next = () => {
    const value = view.getFloat64(at, true);
    at += 8;
    return value;
  };
  const coordinates: [number, number][][][] = [];
  for (let p = next(); p > 0; p--) {
    const rings: [number, number][][] = [];
    for (let r = next(); r > 0; r--) {
      const ring: [number, number][] = [];
      for (let n = next(); n > 0; n--) ring.push([next(), next()]);
      rings.push(ring);
    }
    coordinates.push(rings);
  }
  return { type: 'MultiPolygon', coordinates };
}
