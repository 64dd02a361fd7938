// A footprint as the editors' form holds it: GeoJSON MultiPolygon text, one ring to a line,
// coordinates rounded to 7 decimals (about a centimetre). The server writes the form's
// first text with it and the map in the browser (web/edit/footprint.ts) every change, so
// the text keeps one layout. No imports: the web build bundles it.

export type Position = [number, number];
export type Ring = Position[];
export type Polygon = Ring[];

/** Decimals kept of a longitude or latitude: 1e-7 degrees is about 1 cm. */
export const FOOTPRINT_DECIMALS = 7;
const SCALE = 10 ** FOOTPRINT_DECIMALS;

export function roundCoordinate(value: number): number {
  // n / 1e7 is correctly rounded, so it prints with at most 7 decimals.
  return Math.round(value * SCALE) / SCALE;
}

/**
 * The text of a MultiPolygon's coordinates, one ring to a line: rounded (the map's drawing),
 * or as stored (`exact`: a form's first text, so that saving another field never moves a corner).
 */
export function formatFootprint(polygons: readonly (readonly (readonly (readonly number[])[])[])[], exact = false): string {
  const round = exact ? (n: number) => n : roundCoordinate;
  const ring = (r: readonly (readonly number[])[]) => `    [${r.map((p) => `[${round(p[0] ?? NaN)}, ${round(p[1] ?? NaN)}]`).join(', ')}]`;
  const polygon = (rings: readonly (readonly (readonly number[])[])[]) => `  [\n${rings.map(ring).join(',\n')}\n  ]`;
  return `{"type": "MultiPolygon", "coordinates": [\n${polygons.map(polygon).join(',\n')}\n]}`;
}

export type ParsedFootprint = { ok: true; polygons: Polygon[] } | { ok: false; problem: string };

/**
 * The polygons of a footprint's text, for drawing it: a MultiPolygon, a Polygon, or a
 * Feature of either (as pasted from another tool); empty text is no footprint. Only what a
 * map needs is checked here (numbers, closed rings of 4 positions); the server checks the
 * rest when the form is sent.
 */
export function parseFootprint(text: string): ParsedFootprint {
  if (text.trim() === '') return { ok: true, polygons: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'the text is not JSON (yet)' };
  }
  const geometry = isObject(value) && value.type === 'Feature' ? value.geometry : value;
  if (!isObject(geometry) || (geometry.type !== 'MultiPolygon' && geometry.type !== 'Polygon')) {
    return { ok: false, problem: 'the text is not a GeoJSON MultiPolygon or Polygon' };
  }
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  if (!Array.isArray(polygons)) return { ok: false, problem: 'coordinates: not a list' };
  const read: Polygon[] = [];
  for (const [i, polygon] of polygons.entries()) {
    const path = geometry.type === 'Polygon' ? 'coordinates' : `coordinates[${i}]`;
    const rings = readPolygon(polygon, path);
    if (typeof rings === 'string') return { ok: false, problem: rings };
    read.push(rings);
  }
  return { ok: true, polygons: read };
}

function readPolygon(polygon: unknown, path: string): Polygon | string {
  if (!Array.isArray(polygon) || polygon.length === 0) return `${path}: a polygon is a list of rings, its outline first`;
  const rings: Ring[] = [];
  for (const [j, ring] of polygon.entries()) {
    const read = readRing(ring, `${path}[${j}]`);
    if (typeof read === 'string') return read;
    rings.push(read);
  }
  return rings;
}

function readRing(ring: unknown, path: string): Ring | string {
  if (!Array.isArray(ring) || ring.length < 4) return `${path}: a ring needs at least 4 positions (the first repeated last)`;
  const positions: Ring = [];
  for (const [k, p] of ring.entries()) {
    if (!Array.isArray(p) || !isLongitude(p[0]) || !isLatitude(p[1])) return `${path}[${k}]: not a [longitude, latitude] position`;
    positions.push([p[0], p[1]]);
  }
  const [first, last] = [positions[0], positions[positions.length - 1]];
  if (first?.[0] !== last?.[0] || first?.[1] !== last?.[1]) return `${path}: the ring is not closed (its last position must repeat its first)`;
  return positions;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isLongitude(value: unknown): value is number {
  return typeof value === 'number' && value >= -180 && value <= 180;
}

function isLatitude(value: unknown): value is number {
  return typeof value === 'number' && value >= -90 && value <= 90;
}
