// Footprints drawn as inline SVG path data, server-side: the small maps of the HTML pages
// need no script, no tiles and no request. Longitude is scaled by cos(latitude) so shapes
// keep their proportions; y grows southwards. Only numbers come out of here.

import { JsonText } from '../json-text.js';

/** Longitude, latitude (and any more coordinates GeoJSON allows). */
type Position = readonly [number, number, ...number[]];
type Ring = readonly Position[];
export type Polygons = readonly (readonly Ring[])[];

export interface Shape {
  /** Path data (M/L/Z and numbers), one subpath per ring: fill-rule evenodd shows courtyards. */
  readonly d: string;
}

export interface Drawing {
  readonly viewBox: string;
  readonly shapes: Shape[];
  /** The bounding box drawn, [west, south, east, north]. */
  readonly bbox: [number, number, number, number];
}

/** A stored geometry as GeoJSON: the stores keep valid ones, so it is read, not checked. */
type StoredGeometry = { type: 'MultiPolygon'; coordinates: Polygons } | { type: 'Polygon'; coordinates: readonly Ring[] } | { type: 'Point' | 'LineString' | 'MultiPoint' | 'MultiLineString' };

/** The polygons of a stored geometry (MultiPolygon or Polygon; anything else: none). */
export function polygonsOf(geometryText: string): Polygons {
  const geometry: StoredGeometry = JSON.parse(geometryText);
  if (geometry.type === 'MultiPolygon') return geometry.coordinates;
  if (geometry.type === 'Polygon') return [geometry.coordinates];
  return [];
}

export function bboxOf(polygons: readonly Polygons[]): [number, number, number, number] | null {
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  for (const p of polygons) for (const polygon of p) for (const [lon, lat] of polygon[0] ?? []) {
    w = Math.min(w, lon); e = Math.max(e, lon); s = Math.min(s, lat); n = Math.max(n, lat);
  }
  return Number.isFinite(w) ? [w, s, e, n] : null;
}

const SIZE = 1000;

/** Longitude and latitude → the drawing's x and y, for a box drawn SIZE across its longer side. */
export interface Projection {
  readonly x: (lon: number) => number;
  readonly y: (lat: number) => number;
  readonly viewBox: string;
  /** Drawing units per metre on the ground. */
  readonly perMetre: number;
}

export function projection(bbox: readonly [number, number, number, number], marginShare = 0.08): Projection {
  const [w, s, e, n] = bbox;
  const k = Math.cos((((s + n) / 2) * Math.PI) / 180);
  const width = Math.max((e - w) * k, 1e-9);
  const height = Math.max(n - s, 1e-9);
  const scale = SIZE / Math.max(width, height);
  const margin = SIZE * marginShare;
  return {
    x: (lon: number) => round((lon - w) * k * scale + margin),
    y: (lat: number) => round((n - lat) * scale + margin),
    viewBox: `0 0 ${round(width * scale + 2 * margin)} ${round(height * scale + 2 * margin)}`,
    perMetre: scale / 111_320,
  };
}

/**
 * A footprint's path data in a projection. A vertex less than a drawing unit (a thousandth
 * of the drawing, under a pixel as the pages show it) from the last one kept is left out: a
 * footprint of 2,000 positions drawn a few units across is a few points, not 2,000.
 */
export function pathOf(polygons: Polygons, { x, y }: Projection): string {
  let d = '';
  for (const polygon of polygons) for (const ring of polygon) {
    let last: [number, number] | null = null;
    for (const [lon, lat] of ring) {
      const point: [number, number] = [x(lon), y(lat)];
      if (last !== null && Math.abs(point[0] - last[0]) < 1 && Math.abs(point[1] - last[1]) < 1) continue;
      d += `${last === null ? 'M' : 'L'}${point[0]} ${point[1]}`;
      last = point;
    }
    if (last !== null) d += 'Z';
  }
  return d;
}

/** Several footprints (each one shape) in one drawing fitted to their box, with a margin. */
export function drawFootprints(footprints: readonly Polygons[], frame?: [number, number, number, number]): Drawing | null {
  const bbox = frame ?? bboxOf(footprints);
  return bbox === null ? null : drawIn(footprints, bbox);
}

function drawIn(footprints: readonly Polygons[], bbox: [number, number, number, number]): Drawing {
  const projected = projection(bbox);
  return { viewBox: projected.viewBox, shapes: footprints.map((polygons) => ({ d: pathOf(polygons, projected) })), bbox };
}

/** A box (an extent) as a drawing of its outline inside the box around it twice as big. */
export function drawBox(bbox: [number, number, number, number]): Drawing {
  const [w, s, e, n] = bbox;
  const dx = Math.max((e - w) / 2, 1e-4), dy = Math.max((n - s) / 2, 1e-4);
  const ring: Ring = [[w, s], [e, s], [e, n], [w, n], [w, s]];
  return drawIn([[[ring]]], [w - dx, s - dy, e + dx, n + dy]);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A geometry's GeoJSON text (stored text kept as it is), or null without one: what polygonsOf reads. */
export function geometryText(geometry: JsonText | unknown): string | null {
  if (geometry === null || geometry === undefined) return null;
  return geometry instanceof JsonText ? geometry.text : JSON.stringify(geometry);
}
