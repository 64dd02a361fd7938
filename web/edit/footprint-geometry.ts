// The drawing's shapes and the footprint's polygons, each made from the other. terra-draw
// draws a polygon without holes only, so each hole is a shape of its own (mode 'hole') and
// belongs, when written, to the first part its first corner lies in.
import { roundCoordinate, type Polygon, type Position, type Ring } from '../../src/editing/footprint-text.js';

export interface Shapes {
  parts: Ring[];
  holes: Ring[];
}

export interface Assembled {
  polygons: Polygon[];
  /** Holes inside no part: not written, and said. */
  orphans: number;
}

/** Each polygon's outline a part, its other rings holes. */
export function shapesOf(polygons: readonly Polygon[]): Shapes {
  return { parts: polygons.flatMap((p) => p.slice(0, 1)), holes: polygons.flatMap((p) => p.slice(1)) };
}

/** The polygons of the shapes: rounded, outlines anticlockwise and holes clockwise (RFC 7946). */
export function assemble({ parts, holes }: Shapes): Assembled {
  const polygons: Polygon[] = parts.map((ring) => [oriented(ring, true)]);
  let orphans = 0;
  for (const hole of holes) {
    const corner = hole[0];
    const owner = corner === undefined ? -1 : parts.findIndex((part) => contains(part, corner));
    if (owner === -1) orphans++;
    else polygons[owner]?.push(oriented(hole, false));
  }
  return { polygons, orphans };
}

/** Twice the ring's signed area in degrees: positive when anticlockwise. */
export function signedArea(ring: readonly Position[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [a, b] = [ring[i], ring[i + 1]];
    if (a && b) sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum;
}

function oriented(ring: readonly Position[], anticlockwise: boolean): Ring {
  const rounded = ring.map(([x, y]): Position => [roundCoordinate(x), roundCoordinate(y)]);
  return signedArea(rounded) > 0 === anticlockwise ? rounded : rounded.reverse();
}

/** Whether a point lies inside a ring (even-odd rule). */
export function contains(ring: readonly Position[], [x, y]: Position): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [a, b] = [ring[i], ring[j]];
    if (a && b && a[1] > y !== b[1] > y && x < ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

/** [west, south, east, north] of the polygons' outlines, or null for none. */
export function boundsOf(polygons: readonly Polygon[]): [number, number, number, number] | null {
  const points = polygons.flatMap((p) => p[0] ?? []);
  if (points.length === 0) return null;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
