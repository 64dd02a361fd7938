// Which tiles are too crowded to make on request. A tile is made from the footprints whose
// bounding box meets it (with its buffer); where more than a limit do, or their positions
// are more than a limit, it is made once at import instead. Every other tile then costs at
// most that many footprints and positions: a tile's buffered area lies inside its parent's,
// so a child of an uncrowded tile is uncrowded too. The search asks the store for counts
// (yielding a tile, receiving its load), so that it holds no footprint in memory
// (store/tiles/tile-plans.ts runs it on either store).
import type { Box } from '../search/box.js';
import { MAX_TILE_ZOOM, tileBox, type TileAddress } from './grid.js';

/**
 * A tile made on request costs about 30 µs of CPU per footprint meeting it: up to this many
 * it is answered within 15 ms at p50 and 50 ms at p99 (BENCHMARKS.md, tiles on other
 * catalogues). At 1,000 the tiles of the `sized` and `dense` catalogues took 29 ms of CPU
 * each at p50 and 73–78 ms at p99.
 */
export const CROWDED_ABOVE = 500;
/**
 * And up to this many positions in all: a footprint may have 2,000 (catalogue/limits.ts), and
 * a tile's work (parsing, measuring, clipping) follows its positions.
 */
export const CROWDED_POSITIONS = 10_000;

/** What meets a tile, as the store counts it: footprints up to one past CROWDED_ABOVE, and those footprints' positions. */
export interface TileLoad {
  footprints: number;
  positions: number;
}

export interface CrowdLimits {
  footprints: number;
  positions: number;
}

export const CROWD_LIMITS: CrowdLimits = { footprints: CROWDED_ABOVE, positions: CROWDED_POSITIONS };

export const isCrowded = (load: TileLoad, limits = CROWD_LIMITS): boolean => load.footprints > limits.footprints || load.positions > limits.positions;

export type CrowdedSearch = Generator<TileAddress, TileAddress[], TileLoad>;

/** Which tiles a search visits: every tile, or (after an apply) those a footprint added, removed or moved meets. */
export type TileScope = (tile: TileAddress) => boolean;

export const EVERY_TILE: TileScope = () => true;

/** The crowded tiles in scope, parents before children; yields each tile whose count it needs. */
export function* crowdedSearch(limits = CROWD_LIMITS, scope = EVERY_TILE): CrowdedSearch {
  const crowded: TileAddress[] = [];
  const queue: TileAddress[] = [{ z: 0, x: 0, y: 0 }].filter(scope);
  for (let tile = queue.shift(); tile; tile = queue.shift()) {
    if (!isCrowded(yield tile, limits)) continue;
    crowded.push(tile);
    if (tile.z < MAX_TILE_ZOOM) queue.push(...children(tile).filter(scope));
  }
  return crowded;
}

export function runCrowdedSearch(count: (tile: TileAddress) => TileLoad, limits = CROWD_LIMITS, scope = EVERY_TILE): TileAddress[] {
  const search = crowdedSearch(limits, scope);
  for (let step = search.next(); ; step = search.next(count(step.value))) if (step.done) return step.value;
}

/**
 * The tiles whose buffered box meets one of these footprint boxes: the only tiles whose
 * count or content a change of those footprints can alter. Boxes are widened a little, as
 * SQLite's R*Tree keeps them rounded outwards to 32-bit floats.
 */
export function tilesMeeting(boxes: readonly Box[]): TileScope {
  const widened = boxes.map(([minX, minY, maxX, maxY]): Box => [minX - BOX_MARGIN, minY - BOX_MARGIN, maxX + BOX_MARGIN, maxY + BOX_MARGIN]);
  return (tile) => boxesMeeting(widened, tileBox(tile)) > 0;
}

const BOX_MARGIN = 1e-4;

/** The same search over footprint boxes held in memory, each with its positions (the unit tests' counter). */
export function crowdedTiles(boxes: readonly { box: Box; positions: number }[], limits = CROWD_LIMITS): TileAddress[] {
  return runCrowdedSearch((tile) => {
    const area = tileBox(tile);
    const meeting = boxes.filter(({ box }) => boxesMeeting([box], area) > 0);
    return { footprints: meeting.length, positions: meeting.reduce((sum, { positions }) => sum + positions, 0) };
  }, limits);
}

function boxesMeeting(boxes: readonly Box[], [minX, minY, maxX, maxY]: Box): number {
  return boxes.filter((b) => b[2] >= minX && b[0] <= maxX && b[3] >= minY && b[1] <= maxY).length;
}

function children({ z, x, y }: TileAddress): TileAddress[] {
  return [0, 1].flatMap((dy) => [0, 1].map((dx) => ({ z: z + 1, x: 2 * x + dx, y: 2 * y + dy })));
}
