// Footprints for the demo catalogue: building-sized shapes laid out in metres in a local
// frame along a street, then turned into MultiPolygons of [longitude, latitude].

import type { MultiPolygon, PolygonCoordinates, Position, Ring } from '../catalogue/format.js';
import type { Rng } from './random.js';
import { at } from '../invariant.js';

const LON0 = -0.067;
const LAT0 = 51.516;
const M_PER_DEG_LAT = 111_320;
const M_PER_DEG_LON = 111_320 * Math.cos((LAT0 * Math.PI) / 180);

/** Metres east and north of the demo's centre. */
export type XY = [number, number];

export function toLocal(lon: number, lat: number): XY {
  return [(lon - LON0) * M_PER_DEG_LON, (lat - LAT0) * M_PER_DEG_LAT];
}

/** A street's centre line in local metres, walked by distance from its start. */
export class Line {
  readonly pts: XY[];
  readonly cum: number[];
  readonly length: number;

  constructor(lonLat: readonly [number, number][]) {
    this.pts = lonLat.map(([lon, lat]) => toLocal(lon, lat));
    this.cum = [0];
    let total = 0;
    for (let i = 1; i < this.pts.length; i++) {
      const [ax, ay] = at(this.pts, i - 1);
      const [bx, by] = at(this.pts, i);
      total += Math.hypot(bx - ax, by - ay);
      this.cum.push(total);
    }
    this.length = total;
  }

  /** The point at distance `d` along the line and the unit direction there. */
  at(d: number): { p: XY; t: XY } {
    let i = 1;
    while (i < this.pts.length - 1 && at(this.cum, i) < d) i++;
    const [ax, ay] = at(this.pts, i - 1);
    const [bx, by] = at(this.pts, i);
    const len = Math.hypot(bx - ax, by - ay) || 1;
    const t: XY = [(bx - ax) / len, (by - ay) / len];
    const k = d - at(this.cum, i - 1);
    return { p: [ax + t[0] * k, ay + t[1] * k], t };
  }
}

/** A building's own frame: `u` runs along the frontage (centred on `o`), `v` away from the street. */
export interface Frame {
  o: XY;
  t: XY;
  n: XY;
}

/** The frame of a plot centred `d` metres along `line`, on side +1 (left) or -1 (right), `front` metres out. */
export function frameAt(line: Line, d: number, side: 1 | -1, front: number): Frame {
  const { p, t } = line.at(d);
  const n: XY = [-t[1] * side, t[0] * side];
  return { o: [p[0] + n[0] * front, p[1] + n[1] * front], t, n };
}

/** Polygons of open rings in frame coordinates (u, v); the first ring of each is the outer one. */
export type Shape = XY[][][];

export type ShapeKind = 'rect' | 'quad' | 'L' | 'courtyard' | 'multi';

export function buildingShape(rng: Rng, kind: ShapeKind, w: number, d: number): Shape {
  const h = w / 2;
  switch (kind) {
    case 'rect':
      return [[[[-h, 0], [h, 0], [h, d], [-h, d]]]];
    case 'quad': {
      const j = () => rng.range(-0.9, 0.9);
      return [[[[-h + j(), j() * 0.3], [h + j(), j() * 0.3], [h + j(), d + j() * 2], [-h + j(), d + j() * 2]]]];
    }
    case 'L': {
      const w2 = rng.range(0.35, 0.65) * w;
      const d1 = rng.range(0.4, 0.7) * d;
      const ring: XY[] = [[-h, 0], [h, 0], [h, d1], [-h + w2, d1], [-h + w2, d], [-h, d]];
      return [[rng.chance(0.5) ? ring.map(([u, v]): XY => [-u, v]).reverse() : ring]];
    }
    case 'courtyard': {
      const a = w * rng.range(0.22, 0.3);
      const b = d * rng.range(0.25, 0.32);
      return [[
        [[-h, 0], [h, 0], [h, d], [-h, d]],
        [[-h + a, b], [h - a, b], [h - a, d - b], [-h + a, d - b]],
      ]];
    }
    case 'multi': {
      const d1 = d * rng.range(0.5, 0.65);
      const gap = rng.range(1.2, 3);
      const inset = w * rng.range(0.1, 0.25);
      const parts: Shape = [
        [[[-h, 0], [h, 0], [h, d1], [-h, d1]]],
        [[[-h + inset, d1 + gap], [h - inset, d1 + gap], [h - inset, d + gap], [-h + inset, d + gap]]],
      ];
      if (rng.chance(0.25)) parts.push([[[h - inset, d + gap + 1.5], [h, d + gap + 1.5], [h, d + gap + 4], [h - inset, d + gap + 4]]]);
      return parts;
    }
  }
}

/** An irregular blob of `r` metres around the origin (areas, open spaces). */
export function blobShape(rng: Rng, r: number): Shape {
  const k = rng.int(5, 9);
  const start = rng.range(0, Math.PI * 2);
  const ring: XY[] = [];
  for (let i = 0; i < k; i++) {
    const a = start + (i / k) * Math.PI * 2 + rng.range(-0.2, 0.2);
    const rr = r * rng.range(0.7, 1.15);
    ring.push([Math.cos(a) * rr, Math.sin(a) * rr]);
  }
  return [[ring]];
}

function signedArea(ring: readonly XY[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = at(ring, i);
    const [bx, by] = at(ring, (i + 1) % ring.length);
    sum += ax * by - bx * ay;
  }
  return sum / 2;
}

/**
 * Places a shape in a frame and converts it to a closed, right-hand-rule MultiPolygon
 * (outer rings anticlockwise, holes clockwise). Longitudes keep `lonDigits` decimals and
 * latitudes `latDigits`: full double precision, as a real GIS export writes them.
 */
export function toMultiPolygon(shape: Shape, frame: Frame, lonDigits: number, latDigits: number): MultiPolygon {
  const { o, t, n } = frame;
  const coordinates: PolygonCoordinates[] = shape.map((polygon) =>
    polygon.map((local, ringIndex) => {
      let xy = local.map(([u, v]): XY => [o[0] + t[0] * u + n[0] * v, o[1] + t[1] * u + n[1] * v]);
      const ccw = signedArea(xy) > 0;
      if (ccw !== (ringIndex === 0)) xy = xy.reverse();
      const ring: Ring = xy.map(([x, y]): Position => [
        Number((LON0 + x / M_PER_DEG_LON).toFixed(lonDigits)),
        Number((LAT0 + y / M_PER_DEG_LAT).toFixed(latDigits)),
      ]);
      const first = at(ring, 0);
      ring.push([first[0], first[1]]);
      return ring;
    }),
  );
  return { type: 'MultiPolygon', coordinates };
}
