// A map view's footprints from the box index a server keeps per catalogue version
// (box-index.ts, kept by work/guarded-store.ts): shared by the faces whose pages of
// features in a box are map views (the OGC items page, /api/v1/features/?bbox=), which
// read them inline, after all, while the index is of the catalogue's version.
import type { BoundedContext, KeptJob } from '../work/reads.js';
import { boxBatchPlan, boxesMeeting, boxMatchesPlan, BoxPacker, footprintsIn, type Box, type BoxIndex, type BoxMatches } from './box-index.js';
import { versionPlan } from './read-plans.js';

/**
 * A page of features in a box and nothing else, whose box holds at most this many footprints
 * (by their bounding boxes, counted in the spatial index up to one past it), is a map view's:
 * its work is bounded (this many ids from the index, the few across the box's edges tested
 * exactly, a page read by id: about a millisecond on SQLite), so it runs at once, inline,
 * without a turn. A wider box is a costly read. Inline, the bbox page of bench --peers went
 * from 293 to 372 answers a second on SQLite, 221 to 390 on PostgreSQL (the turns of `reads`
 * no longer bound it); at 300 a denser catalogue's views (scale 3: 224 footprints a view,
 * 448 at the 90th percentile) were costly reads a quarter of the time.
 */
export const MAP_VIEW_FOOTPRINTS = 1000;

/**
 * A map view whose footprints the box index finds answers inline up to this many: the
 * index's search, the sort of their ids, the exact test of those across the box's edges (a
 * few hundred at most on a street map's view) and the page by id cost about 1 ms for 4,400
 * footprints and 4–5 ms for all 40,000 of scale 10 (SQLite, on a loaded 2-core machine),
 * where the store's spatial index took 4.6 ms and 134 ms.
 */
export const MAP_VIEW_INDEXED = 10_000;

/**
 * Every footprint's box, packed, for the catalogue version it was read at: read in one
 * snapshot, MAP_INDEX_BATCH boxes at a time in id order, each batch a part (the deadline
 * runs again: read whole, a national catalogue's 400,000 took 3–6 s, past DB_TIMEOUT_MS),
 * in a worker; kept by the server.
 */
export const boxIndexJob: KeptJob<BoxIndex> = {
  name: 'boxIndex',
  workClass: 'reads',
  async run({ store, part }, { mapIndexBatch }) {
    const snapshot = await store.snapshot();
    try {
      const version = await snapshot.run(() => versionPlan());
      const packer = new BoxPacker();
      for (let after = 0, full = true; full; ) {
        const from = after;
        const batch = await snapshot.run((dialect) => boxBatchPlan(dialect, from, mapIndexBatch));
        packer.add(batch.boxes);
        part(null);
        after = batch.last ?? after;
        full = batch.full;
      }
      return packer.pack(version);
    } finally {
      await snapshot.close();
    }
  },
};

/**
 * A box's footprints, every one, from the index kept: those its boxes do not tell of tested
 * exactly in the statement that reads the catalogue version. 'costly' past either bound
 * (the index's ids and their sort, MAP_VIEW_INDEXED; the exact tests, MAP_VIEW_FOOTPRINTS,
 * inline on SQLite); null when no index is kept of the catalogue's version, which is then
 * read again in the background (keepFor).
 */
export async function indexedMatches(context: BoundedContext, box: Box): Promise<BoxMatches | 'costly' | null> {
  const index = context.lastKept(boxIndexJob);
  const found = index === null ? null : footprintsIn(index, box);
  if (found !== null && (found.meeting.length + found.across.length > MAP_VIEW_INDEXED || found.across.length > MAP_VIEW_FOOTPRINTS)) return 'costly';
  // The version and the exact test in one statement; without an index, the version alone.
  const matches = found === null ? null : await context.reader.read((dialect) => boxMatchesPlan(found, dialect), { oneStatement: true });
  const version = matches?.version ?? (await context.reader.read(() => versionPlan(), { oneStatement: true }));
  context.keepFor(boxIndexJob, version);
  return matches !== null && matches.version === found?.version ? matches : null;
}

/**
 * Whether the box index kept, of the catalogue's version (read inline), counts more than
 * `atMost` footprints in the box. False also when none is kept of that version: it is then
 * read again in the background (keepFor), and the caller counts in the store.
 */
export async function wideInIndex(context: BoundedContext, box: Box, atMost: number): Promise<boolean> {
  const index = context.lastKept(boxIndexJob);
  const version = await context.reader.read(() => versionPlan(), { oneStatement: true });
  context.keepFor(boxIndexJob, version);
  return index !== null && index.version === version && boxesMeeting(index, box) > atMost;
}
