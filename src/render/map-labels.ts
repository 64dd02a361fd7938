// The map explorer's labels from the catalogue's own names, drawn by the page as HTML (no
// glyph server): each street's name along its buildings, once per stretch of street, in the
// street rather than over the buildings, and a building's number (or name) at its
// footprint's centre.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import { outOfBounds } from '../invariant.js';
import type { Box, LabelledBuilding, StreetBuildings } from '../store/map/map-plans.js';

/** A label's anchor and its rotation on a north-up map, in degrees clockwise (text never upside down). */
export interface StreetLabel {
  name: string;
  lon: number;
  lat: number;
  angle: number;
}

export interface BuildingLabel {
  id: number;
  text: string;
  lon: number;
  lat: number;
}

/** A street longer than this (in degrees of latitude, about 250 m) gets a label per stretch. */
const STRETCH = 0.00225;

type Point = [number, number];

export function renderStreetLabels(streets: NonNullable<StreetBuildings['streets']>): StreetLabel[] {
  // Every building's centre is read where it lies rather than gathered into arrays: at
  // scale 100 (388,000 buildings) the arrays grew the server by 160 MB.
  let [count, latitudes] = [0, 0];
  for (const { centres } of streets) {
    for (let k = 1; k < centres.length; k += 2) {
      const lat = centres[k];
      if (lat === undefined) outOfBounds();
      [count, latitudes] = [count + 1, latitudes + lat];
    }
  }
  if (count === 0) return [];
  // Local coordinates in which a degree of longitude is as long as it is on the ground.
  const scale = Math.cos(((latitudes / count) * Math.PI) / 180);
  const nearby = new Neighbours(FRONT);
  for (const { centres } of streets) {
    for (let k = 0; k + 1 < centres.length; k += 2) {
      const lon = centres[k];
      const lat = centres[k + 1];
      if (lon === undefined || lat === undefined) outOfBounds();
      nearby.add(lon * scale, lat);
    }
  }
  return streets.flatMap(({ name, centres }) => {
    const points = local(centres, scale);
    const axis = principalAngle(points);
    return stretches(points, axis).map((part) => {
      const angle = part.length > 1 ? principalAngle(part) : axis;
      const [x, y] = inStreet(part, angle, nearby);
      return { name, lon: round(x / scale), lat: round(y), angle: readable(angle) };
    });
  });
}

/** A street's centres (lon, lat, lon, lat…) as points whose x is longitude times `scale`. */
function local(centres: readonly number[], scale: number): Point[] {
  const points: Point[] = [];
  for (let k = 0; k + 1 < centres.length; k += 2) {
    const lon = centres[k];
    const lat = centres[k + 1];
    if (lon === undefined || lat === undefined) outOfBounds();
    points.push([lon * scale, lat]);
  }
  return points;
}

/** Metres in degrees of latitude. */
const METRE = 1 / 111_320;
/** From a row of buildings' centres to the middle of their street: half a building and half a street. */
const FRONT = 14 * METRE;

/**
 * Where a stretch's label goes: the middle of its buildings when they stand on both sides
 * of the street (the street runs between them), else beside their single row, on the side
 * with fewer buildings (the street's side, not the backs of the plots).
 */
function inStreet(part: readonly Point[], angle: number, nearby: Neighbours): Point {
  const [mx, my] = mean(part);
  const normal: Point = [-Math.sin(angle), Math.cos(angle)];
  const spread = Math.max(...part.map(([x, y]) => Math.abs((x - mx) * normal[0] + (y - my) * normal[1])));
  if (spread >= FRONT) return [mx, my];
  const side = (k: number): Point => [mx + k * FRONT * normal[0], my + k * FRONT * normal[1]];
  const [one, other] = [side(1), side(-1)];
  return nearby.count(other) < nearby.count(one) ? other : one;
}

/** Points in square cells of `radius`, to count those within `radius` of a point. */
class Neighbours {
  /** Each cell's points as x, y, x, y…: no array per point. */
  private readonly cells = new Map<number, number[]>();

  constructor(private readonly radius: number) {}

  add(x: number, y: number): void {
    const key = this.key(Math.floor(x / this.radius), Math.floor(y / this.radius));
    const cell = this.cells.get(key);
    if (cell) cell.push(x, y);
    else this.cells.set(key, [x, y]);
  }

  count([x, y]: Point): number {
    const [cx, cy] = [Math.floor(x / this.radius), Math.floor(y / this.radius)];
    let n = 0;
    for (let i = cx - 1; i <= cx + 1; i++) {
      for (let j = cy - 1; j <= cy + 1; j++) {
        const cell = this.cells.get(this.key(i, j)) ?? [];
        for (let k = 0; k < cell.length; k += 2) {
          const px = cell[k];
          const py = cell[k + 1];
          if (px === undefined || py === undefined) outOfBounds();
          if (Math.hypot(px - x, py - y) <= this.radius) n++;
        }
      }
    }
    return n;
  }

  /** One number per cell, not a string: i·2^22 + j is one cell's alone while |j| < 2^21 (90° is 715,000 cells of 14 m), and exact. */
  private key(i: number, j: number): number {
    return i * 2 ** 22 + j;
  }
}

/** The number, else the name; a building with neither (both empty) has no label. */
export function renderBuildingLabels(buildings: readonly LabelledBuilding[]): BuildingLabel[] {
  return buildings.flatMap((b) => {
    const text = b[F.number] || b[F.name];
    if (!text) return [];
    const [lon, lat] = centre(b.box);
    return [{ id: b.id, text, lon: round(lon), lat: round(lat) }];
  });
}

/** Six decimals: about 10 cm, and the stores' boxes agree to that. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

const centre = (b: Box): Point => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

function mean(points: readonly Point[]): Point {
  return [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
}

/** The direction (radians, anticlockwise from east) along which the points spread most. */
export function principalAngle(points: readonly Point[]): number {
  const [mx, my] = mean(points);
  let [xx, yy, xy] = [0, 0, 0];
  for (const [x, y] of points) {
    xx += (x - mx) ** 2;
    yy += (y - my) ** 2;
    xy += (x - mx) * (y - my);
  }
  return 0.5 * Math.atan2(2 * xy, xx - yy);
}

/** The points cut into runs of at most STRETCH along the axis. */
function stretches(points: readonly Point[], axis: number): Point[][] {
  const along = (p: Point) => p[0] * Math.cos(axis) + p[1] * Math.sin(axis);
  const sorted = [...points].sort((a, b) => along(a) - along(b));
  const runs: Point[][] = [];
  let run: Point[] = [];
  let start = -Infinity;
  for (const p of sorted) {
    if (along(p) - start > STRETCH) {
      run = [];
      runs.push(run);
      start = along(p);
    }
    run.push(p);
  }
  return runs;
}

/** Anticlockwise radians → a CSS rotation (clockwise degrees) in [-90, 90), rounded to a degree. */
export function readable(radians: number): number {
  let degrees = Math.round((-radians * 180) / Math.PI) + 0; // + 0: no -0
  while (degrees >= 90) degrees -= 180;
  while (degrees < -90) degrees += 180;
  return degrees;
}
