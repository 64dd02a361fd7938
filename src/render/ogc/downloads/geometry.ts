// A footprint (a GeoJSON MultiPolygon) in the forms the downloads need: WKT for CSV, its
// envelope, and a representative point that lies inside it (computed here, the same
// whatever the store). GeoPackage's WKB is catalogue/wkb.ts.
import type { MultiPolygon, PolygonCoordinates, Position, Ring } from '../../../catalogue/format.js';

const ring = (r: Ring) => `(${r.map(([x, y]) => `${x} ${y}`).join(', ')})`;

export function multiPolygonWkt(geometry: MultiPolygon): string {
  if (geometry.coordinates.length === 0) return 'MULTIPOLYGON EMPTY';
  return `MULTIPOLYGON (${geometry.coordinates.map((p) => `(${p.map(ring).join(', ')})`).join(', ')})`;
}

/** [minX, minY, maxX, maxY], or null for an empty geometry. */
export function envelopeOf(geometry: MultiPolygon): [number, number, number, number] | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const polygon of geometry.coordinates) {
    for (const r of polygon) {
      for (const [x, y] of r) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  return minX === Infinity ? null : [minX, minY, maxX, maxY];
}

/** Shoelace: twice the signed area of a ring; its centroid's sums alongside. */
function ringMoments(r: Ring): { area: number; cx: number; cy: number } {
  let area = 0;
  let cx = 0;
  let cy = 0;
  let previous: Position | undefined;
  for (const point of r) {
    if (previous !== undefined) {
      const [x0, y0] = previous;
      const [x1, y1] = point;
      const cross = x0 * y1 - x1 * y0;
      area += cross;
      cx += (x0 + x1) * cross;
      cy += (y0 + y1) * cross;
    }
    previous = point;
  }
  return { area, cx, cy };
}

/** A polygon's area (outer ring less its holes) and centroid; null when it has no area. */
function polygonCentroid(polygon: PolygonCoordinates): { area: number; point: Position | null } {
  let area = 0;
  let cx = 0;
  let cy = 0;
  polygon.forEach((r, i) => {
    const m = ringMoments(r);
    // The outer ring counts positively, holes negatively, whatever their winding.
    const sign = (i === 0 ? 1 : -1) * Math.sign(m.area);
    area += sign * m.area;
    cx += sign * m.cx;
    cy += sign * m.cy;
  });
  if (area === 0) return { area: 0, point: null };
  return { area: Math.abs(area) / 2, point: [cx / (3 * area), cy / (3 * area)] };
}

/** Even-odd rule over every ring: inside the outer ring and outside its holes. */
function insidePolygon(polygon: PolygonCoordinates, [px, py]: Position): boolean {
  let inside = false;
  for (const r of polygon) {
    // Each edge: from the point before (the last, for the first) to this one.
    let previous = r[r.length - 1];
    for (const point of r) {
      if (previous === undefined) break;
      const [xi, yi] = point;
      const [xj, yj] = previous;
      if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
      previous = point;
    }
  }
  return inside;
}

/**
 * A point on the polygon's surface: the middle of the widest stretch of a horizontal line
 * through it, at a height between two vertices' (so the line crosses edges, not vertices).
 */
function pointOnSurface(polygon: PolygonCoordinates): Position | null {
  const ys = [...new Set(polygon.flatMap((r) => r.map(([, y]) => y)))].sort((a, b) => a - b);
  if (ys.length < 2) return null;
  // Between the two vertex heights around the middle of the polygon's height.
  const middle = ((ys[0] ?? 0) + (ys[ys.length - 1] ?? 0)) / 2;
  let k = ys.findIndex((y) => y > middle);
  if (k <= 0) k = Math.floor(ys.length / 2);
  const y = ((ys[k - 1] ?? 0) + (ys[k] ?? 0)) / 2;
  const xs: number[] = [];
  for (const r of polygon) {
    let previous: Position | undefined;
    for (const point of r) {
      if (previous !== undefined) {
        const [x0, y0] = previous;
        const [x1, y1] = point;
        if (y0 > y !== y1 > y) xs.push(x0 + ((y - y0) * (x1 - x0)) / (y1 - y0));
      }
      previous = point;
    }
  }
  xs.sort((a, b) => a - b);
  let best: Position | null = null;
  let width = -1;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    const a = xs[i] ?? 0;
    const b = xs[i + 1] ?? 0;
    if (b - a > width) {
      width = b - a;
      best = [(a + b) / 2, y];
    }
  }
  return best;
}

/**
 * A point inside the footprint: the centroid of its largest polygon when that lies inside
 * it, else a point on that polygon's surface; null for an empty footprint.
 */
export function representativePoint(geometry: MultiPolygon): Position | null {
  let largest: PolygonCoordinates | null = null;
  let largestArea = -1;
  let centroid: Position | null = null;
  for (const polygon of geometry.coordinates) {
    const { area, point } = polygonCentroid(polygon);
    if (area > largestArea) {
      largest = polygon;
      largestArea = area;
      centroid = point;
    }
  }
  if (largest === null) return null;
  if (centroid !== null && insidePolygon(largest, centroid)) return centroid;
  return pointOnSurface(largest) ?? largest[0]?.[0] ?? null;
}
