// A record page's small map of where the building is: its footprint among its neighbours'
// with the streets' names, drawn by the server as SVG (no script, no tiles, no request),
// and the nearest buildings listed. The frame is chosen first (`contextFrame`), the store
// asked for the footprints in it, then `drawContext` draws them.
import type { StreetLabel } from '../map-labels.js';
import { bboxOf, pathOf, projection, type Polygons } from '../../pages/footprint.js';

const METRE = 1 / 111_320;
/** At least this much ground on each side of the building, so its street shows. */
export const CONTEXT_MARGIN_METRES = 70;
/** The ground tried, widest first, until its footprints fit (http/site/record-pages.ts). */
export const CONTEXT_MARGINS = [CONTEXT_MARGIN_METRES, CONTEXT_MARGIN_METRES / 2, CONTEXT_MARGIN_METRES / 4, CONTEXT_MARGIN_METRES / 8];
/** Neighbours drawn at most (a page of the items route that stays a map view: work/classes.ts). */
export const CONTEXT_NEIGHBOURS = 100;
/** The neighbours' footprints' text read at most (about 10,000 positions, as a tile made on request): the frame is narrowed past it. */
export const CONTEXT_BYTES = 250_000;
/** Buildings listed as nearby. */
export const NEARBY_COUNT = 6;

export type Box = [number, number, number, number];

/** The ground around a footprint: its box grown by `margin` metres each side, square on the ground. */
export function contextFrame(footprint: Polygons, margin = CONTEXT_MARGIN_METRES): Box | null {
  const box = bboxOf([footprint]);
  if (box === null) return null;
  const [w, s, e, n] = box;
  const k = Math.cos((((s + n) / 2) * Math.PI) / 180);
  const half = Math.max((n - s) / 2, ((e - w) * k) / 2) + margin * METRE;
  const [cx, cy] = [(w + e) / 2, (s + n) / 2];
  return [cx - half / k, cy - half, cx + half / k, cy + half];
}

export interface Neighbour {
  id: number;
  label: string;
  footprint: Polygons;
}

export interface NearbyBuilding {
  id: number;
  label: string;
  metres: number;
  direction: string;
}

export interface ContextDrawing {
  viewBox: string;
  self: string;
  neighbours: string[];
  streets: { name: string; x: number; y: number; angle: number; size: number }[];
  /** A bar a round number of metres long, for the scale. */
  scale: { width: number; label: string; x: number; y: number };
}

export function drawContext(frame: Box, footprint: Polygons, neighbours: readonly Neighbour[], streets: readonly StreetLabel[]): ContextDrawing {
  const projected = projection(frame, 0);
  const [w, s, e, n] = frame;
  const inFrame = (l: StreetLabel) => l.lon > w && l.lon < e && l.lat > s && l.lat < n;
  const size = Math.round(11 * projected.perMetre * 10) / 10;
  const metres = scaleMetres((e - w) * Math.cos((((s + n) / 2) * Math.PI) / 180) / METRE);
  return {
    viewBox: projected.viewBox,
    self: pathOf(footprint, projected),
    neighbours: neighbours.map((b) => pathOf(b.footprint, projected)),
    streets: streets.filter(inFrame).map((l) => ({ name: l.name, x: projected.x(l.lon), y: projected.y(l.lat), angle: l.angle, size })),
    scale: { width: Math.round(metres * projected.perMetre), label: `${metres} m`, x: 20, y: Number(projected.viewBox.split(' ')[3]) - 24 },
  };
}

/** A fifth of the frame's width, rounded down to 10, 20, 50, 100… metres. */
function scaleMetres(frameMetres: number): number {
  const target = frameMetres / 5;
  const steps = [10, 20, 50, 100, 200, 500, 1000];
  return steps.filter((m) => m <= target).pop() ?? 10;
}

/** The neighbours nearest the footprint's centre (their boxes' centres), nearest first. */
export function nearbyBuildings(footprint: Polygons, neighbours: readonly Neighbour[], count = NEARBY_COUNT): NearbyBuilding[] {
  const centre = centreOf(footprint);
  if (centre === null) return [];
  const k = Math.cos((centre[1] * Math.PI) / 180);
  return neighbours
    .map((b) => ({ b, c: centreOf(b.footprint) }))
    .filter((x): x is { b: Neighbour; c: [number, number] } => x.c !== null)
    .map(({ b, c }) => {
      const dx = ((c[0] - centre[0]) * k) / METRE, dy = (c[1] - centre[1]) / METRE;
      return { id: b.id, label: b.label, metres: Math.round(Math.hypot(dx, dy)), direction: compass(dx, dy) };
    })
    .sort((a, b) => a.metres - b.metres || a.id - b.id)
    .slice(0, count);
}

function centreOf(footprint: Polygons): [number, number] | null {
  const box = bboxOf([footprint]);
  return box === null ? null : [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
}

const POINTS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];

/** The compass point of an offset (east, north in metres). */
export function compass(dx: number, dy: number): string {
  const degrees = (Math.atan2(dx, dy) * 180) / Math.PI;
  return POINTS[(Math.round(((degrees + 360) % 360) / 45)) % 8] ?? 'north';
}
