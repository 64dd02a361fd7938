// A tile's byte budget, and the levels of detail a tile steps down through to keep it, as
// tile builders do (tippecanoe's --maximum-tile-bytes, 500 KB by default, reached by dropping
// or merging the densest features, never by failing). Without it the 2-pixel rule bounds
// nothing: where footprints are a little larger or denser than the demo's, every one stays a
// polygon and a tile reached 862 KB (BENCHMARKS.md, tiles on other catalogues).
//
// Level 0 is the full rule (polygons from 2 pixels across, one point per 2 × 2 pixel cell).
// Each later level draws polygons only from twice the size of the one before, so the smaller
// footprints join the points layer, still counted; past 32 pixels the cells grow too, for a
// tile so dense that its points alone would be over budget; the last level is points only,
// a few dozen cells, which always fits. A tile is drawn at the first level whose bytes fit:
// whichever store or path makes it, the same footprints give the same level and bytes.
import { CELL_UNITS, PIXEL_UNITS, VISIBLE_UNITS } from './grid.js';

/**
 * Under 100 KB, so that the median tile stays under the 100 KB a phone on a mobile network
 * fetches and MapLibre decodes without dropping frames, and far under tippecanoe's 500 KB.
 */
export const TILE_BUDGET_BYTES = 96 * 1024;

export interface DetailLevel {
  /** A footprint this many tile units across (the square root of its area) or more is a polygon. */
  polygonUnits: number;
  /** The cells of the points layer: squares of this many units. */
  cellUnits: number;
}

const px = (n: number) => n * PIXEL_UNITS;

export const DETAIL_LEVELS: readonly DetailLevel[] = [
  ...[1, 2, 4, 8, 16].map((k) => ({ polygonUnits: VISIBLE_UNITS * k, cellUnits: CELL_UNITS })),
  { polygonUnits: px(64), cellUnits: px(4) },
  { polygonUnits: px(128), cellUnits: px(8) },
  { polygonUnits: px(256), cellUnits: px(16) },
  { polygonUnits: Infinity, cellUnits: px(32) },
];

export const FULL_DETAIL = 0;
export const LAST_LEVEL = DETAIL_LEVELS.length - 1;

/** A level of detail by its number, from FULL_DETAIL to LAST_LEVEL. */
export function detailLevel(level: number): DetailLevel {
  const found = DETAIL_LEVELS[level];
  if (found === undefined) throw new RangeError(`No level of detail ${level}: they run from ${FULL_DETAIL} to ${LAST_LEVEL}.`);
  return found;
}

/** The levels in words, for the layers' descriptions (TileJSON, the OGC tileset). */
export function describeLevels(): string {
  const pixels = (units: number) => units / PIXEL_UNITS;
  const steps = DETAIL_LEVELS.slice(1).map(({ polygonUnits, cellUnits }) =>
    `${Number.isFinite(polygonUnits) ? `polygons from ${pixels(polygonUnits)} px` : 'no polygons'}${cellUnits === CELL_UNITS ? '' : ` with ${pixels(cellUnits)} px cells`}`);
  return `A tile is kept within ${TILE_BUDGET_BYTES / 1024} KiB: where full detail would be larger, it is drawn at the first of these that fits: ${steps.join('; ')}; every footprint not drawn as a polygon is counted in a point.`;
}
