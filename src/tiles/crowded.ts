// Which tiles are too crowded to make on request. A tile is made from the footprints whose
// bounding box meets it (with its buffer); where more than a limit do, it is made once at
// import instead. Every other tile then costs at most `limit` footprints: a tile's buffered
// area lies inside its parent's, so a child of an uncrowded tile is uncrowded too.
// The search asks the store for counts (yielding a tile, receiving its count), so that it
// holds no footprint in memory (store/tile-plans.ts runs it on either store).
import type { Box } from '../search/box.js';
import { MAX_TILE_ZOOM, tileBox, type TileAddress } from './grid.js';

/** A tile made on request is answered in a few milliseconds up to this many footprints (see BENCHMARKS.md). */
export const CROWDED_ABOVE = 1000;

export type CrowdedSearch = Generator<TileAddress, TileAddress[], number>;

/** Which tiles a search visits: every tile, or (after an apply) those a footprint added, removed or moved meets. */
export type TileScope = (tile: TileAddress) => boolean;

export const EVERY_TILE: TileScope = () => true;

/** The crowded tiles in scope, parents before children; yields each tile whose count it needs. */
export function* crowdedSearch(limit = CROWDED_ABOVE, scope = EVERY_TILE): CrowdedSearch {
  const crowded: TileAddress[] = [];
  const queue: TileAddress[] = [{ z: 0, x: 0, y: 0 }].filter(scope);
  for (let tile = queue.shift(); tile; tile = queue.shift()) {
    if ((yield tile) <= limit) continue;
    crowded.push(tile);
    if (tile.z < MAX_TILE_ZOOM) queue.push(...children(tile).filter(scope));
  }
  return crowded;
}

export function runCrowdedSearch(count: (tile: TileAddress) => number, limit = CROWDED_ABOVE, scope = EVERY_TILE): TileAddress[] {
  const search = crowdedSearch(limit, scope);
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

/** The same search over boxes held in memory (the unit tests' counter). */
export function crowdedTiles(boxes: readonly Box[], limit = CROWDED_ABOVE): TileAddress[] {
  return runCrowdedSearch((tile) => boxesMeeting(boxes, tileBox(tile)), limit);
}

function boxesMeeting(boxes: readonly Box[], [minX, minY, maxX, maxY]: Box): number {
  return boxes.filter((b) => b[2] >= minX && b[0] <= maxX && b[3] >= minY && b[1] <= maxY).length;
}

function children({ z, x, y }: TileAddress): TileAddress[] {
  return [0, 1].flatMap((dy) => [0, 1].map((dx) => ({ z: z + 1, x: 2 * x + dx, y: 2 * y + dy })));
}
