// Where a street's name is written on the map (the map explorer's labels, the record pages'
// small maps): once per stretch of street, in the street rather than over its buildings.
// A street's labels depend on its own buildings' centres and on the centres around them
// alone (within NEIGHBOURHOOD), never on the rest of the catalogue, so that an apply places
// again only the streets a changed building is part of or near (street-label-plans.ts).
import { outOfBounds } from '../../invariant.js';

/** A label's anchor and its rotation on a north-up map, in degrees clockwise (text never upside down). */
export interface StreetLabel {
  name: string;
  lon: number;
  lat: number;
  angle: number;
}

/** A street longer than this (in degrees of latitude, about 250 m) gets a label per stretch. */
const STRETCH = 0.00225;
/** Metres in degrees of latitude. */
const METRE = 1 / 111_320;
/** From a row of buildings' centres to the middle of their street: half a building and half a street. */
const FRONT = 14 * METRE;
/**
 * How far (in degrees of latitude; of longitude, this over the ground scale) a street's
 * labels may count buildings: from a lookout (a stretch's middle), two fronts (a label
 * within FRONT of it counts those within FRONT of the label); from a label, three (the
 * other side's point is 2 FRONT away). Four leave a margin for rounding.
 */
export const NEIGHBOURHOOD = 4 * FRONT;

type Point = [number, number];

/** A degree of longitude over a degree of latitude on the ground, at the mean latitude of these centres (lon, lat, lon, lat…). */
export function groundScale(centres: readonly number[]): number {
  let [count, latitudes] = [0, 0];
  for (let k = 1; k < centres.length; k += 2) {
    const lat = centres[k];
    if (lat === undefined) outOfBounds();
    [count, latitudes] = [count + 1, latitudes + lat];
  }
  return count === 0 ? 1 : Math.cos(((latitudes / count) * Math.PI) / 180);
}

/**
 * Where a street's labels look for other buildings (lon, lat): the middle of each stretch
 * whose buildings stand in a single row (the label goes to the side with fewer buildings
 * within FRONT of a point within FRONT of this one). Other stretches look nowhere.
 */
export function lookouts(centres: readonly number[]): [number, number][] {
  if (centres.length < 2) return [];
  const scale = groundScale(centres);
  const points = local(centres, scale);
  const axis = principalAngle(points);
  return stretches(points, axis).flatMap((part) => {
    const angle = part.length > 1 ? principalAngle(part) : axis;
    const [mx, my] = mean(part);
    return singleRow(part, angle) ? [[mx / scale, my]] : [];
  });
}

/** A street's labels from its buildings' centres (lon, lat, lon, lat…) and the centres around them (its own among them). */
export function placeStreetLabels(name: string, centres: readonly number[], around: Centres): StreetLabel[] {
  if (centres.length < 2) return [];
  const scale = groundScale(centres);
  const points = local(centres, scale);
  const axis = principalAngle(points);
  const nearby = ([x, y]: Point) => around.countNear(x / scale, y, scale);
  return stretches(points, axis).map((part) => {
    const angle = part.length > 1 ? principalAngle(part) : axis;
    const [x, y] = inStreet(part, angle, nearby);
    return { name, lon: round(x / scale), lat: round(y), angle: readable(angle) };
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

/**
 * Where a stretch's label goes: the middle of its buildings when they stand on both sides
 * of the street (the street runs between them), else beside their single row, on the side
 * with fewer buildings (the street's side, not the backs of the plots).
 */
function inStreet(part: readonly Point[], angle: number, nearby: (p: Point) => number): Point {
  const [mx, my] = mean(part);
  if (!singleRow(part, angle)) return [mx, my];
  const normal: Point = [-Math.sin(angle), Math.cos(angle)];
  const side = (k: number): Point => [mx + k * FRONT * normal[0], my + k * FRONT * normal[1]];
  const [one, other] = [side(1), side(-1)];
  return nearby(other) < nearby(one) ? other : one;
}

/** Whether a stretch's buildings spread less than FRONT across it: a single row. */
function singleRow(part: readonly Point[], angle: number): boolean {
  const [mx, my] = mean(part);
  const normal: Point = [-Math.sin(angle), Math.cos(angle)];
  return Math.max(...part.map(([x, y]) => Math.abs((x - mx) * normal[0] + (y - my) * normal[1]))) < FRONT;
}

/** Buildings' centres (lon, lat) in square cells of FRONT degrees, to count those within FRONT of a point on the ground. */
export class Centres {
  /** Each cell's points as lon, lat, lon, lat…: no array per point (388,000 of them at scale 100). */
  private readonly cells = new Map<number, number[]>();

  add(lon: number, lat: number): void {
    const key = cellKey(Math.floor(lon / FRONT), Math.floor(lat / FRONT));
    const cell = this.cells.get(key);
    if (cell) cell.push(lon, lat);
    else this.cells.set(key, [lon, lat]);
  }

  /** How many lie within FRONT of (lon, lat), where a degree of longitude is `scale` of a degree of latitude. */
  countNear(lon: number, lat: number, scale: number): number {
    const reach = FRONT / scale;
    const [cy] = [Math.floor(lat / FRONT)];
    let n = 0;
    for (let i = Math.floor((lon - reach) / FRONT); i <= Math.floor((lon + reach) / FRONT); i++) {
      for (let j = cy - 1; j <= cy + 1; j++) {
        const cell = this.cells.get(cellKey(i, j)) ?? [];
        for (let k = 0; k < cell.length; k += 2) {
          const px = cell[k];
          const py = cell[k + 1];
          if (px === undefined || py === undefined) outOfBounds();
          if (Math.hypot((px - lon) * scale, py - lat) <= FRONT) n++;
        }
      }
    }
    return n;
  }
}

/** One number per cell, not a string: i·2^22 + j is one cell's alone while |j| < 2^21 (90° is 715,000 cells of 14 m), and exact. */
const cellKey = (i: number, j: number) => i * 2 ** 22 + j;

/** Six decimals: about 10 cm, and the stores' boxes agree to that. */
export const round = (n: number) => Math.round(n * 1e6) / 1e6;

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
