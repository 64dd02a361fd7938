// A packed index of every footprint's bounding box for one catalogue version (flatbush),
// built once per version in a worker thread, batch by batch in one snapshot
// (map-view-reads.ts boxIndexJob), and kept by the server (work/guarded-store.ts keepFor): a map view's footprints are found in microseconds, where the store's spatial
// index hands them over one row at a time (SQLite's R*Tree: 1.2 ms for 700 ids at scale 10,
// bench --peers). Its data lives in SharedArrayBuffers, so it crosses from the worker that
// built it without a copy. Its boxes are the store's own (dialect.ts featureBoxes: SQLite's
// R*Tree rounded outwards, PostGIS's exact), each holding its footprint: a footprint whose box
// lies inside a view's meets the view, as does most of those across one of its edges
// (boxTellsMeeting); only the rest need the exact test.
import Flatbush from 'flatbush';
import { binder, type Dialect } from './dialect.js';
import { selectRows, type Plan } from './read-plans.js';

export type Box = readonly [minX: number, minY: number, maxX: number, maxY: number];

export interface BoxIndex {
  readonly version: number;
  /** Flatbush's data, its item i the footprint ids[i]; null when no feature has a footprint. */
  readonly data: SharedArrayBuffer | null;
  readonly ids: Int32Array;
}

/** A box's footprints as the index finds them, for one catalogue version. */
export interface BoxFootprints {
  readonly version: number;
  readonly box: Box;
  /** Those that meet it, as their boxes tell (boxTellsMeeting). */
  readonly meeting: readonly number[];
  /** The others whose boxes meet it: to be tested exactly. */
  readonly across: readonly number[];
}

export interface BoxRow {
  id: number | string;
  min_x: number | null;
  min_y: number | null;
  max_x: number | null;
  max_y: number | null;
}

/** A batch of footprints' boxes: those of the `limit` features after id `after`, in id order (a feature without a footprint has none). */
export function* boxBatchPlan(dialect: Dialect, after: number, limit: number): Plan<{ boxes: BoxRow[]; last: number | null; full: boolean }> {
  const { from, columns } = dialect.featureBoxes('f');
  const sql = `SELECT f.id AS id, ${columns} FROM ${from} WHERE f.id > $1 ORDER BY f.id LIMIT $2`;
  const rows = yield* selectRows<BoxRow>({ sql, params: [after, limit] });
  const last = rows.at(-1);
  return { boxes: rows.filter((r) => r.min_x !== null), last: last === undefined ? null : Number(last.id), full: rows.length === limit };
}

/**
 * Boxes gathered batch by batch, then packed: kept as numbers in typed arrays that double
 * as they fill (some 40 bytes a footprint: 16 MB at 400,000), not as rows.
 */
export class BoxPacker {
  private ids = new Int32Array(1024);
  private boxes = new Float64Array(4 * 1024);
  private count = 0;

  add(rows: readonly BoxRow[]): void {
    if (this.count + rows.length > this.ids.length) this.grow(this.count + rows.length);
    for (const row of rows) {
      const at = this.count++;
      this.ids[at] = Number(row.id);
      this.boxes[4 * at] = Number(row.min_x);
      this.boxes[4 * at + 1] = Number(row.min_y);
      this.boxes[4 * at + 2] = Number(row.max_x);
      this.boxes[4 * at + 3] = Number(row.max_y);
    }
  }

  /** The index of every box added, for the catalogue version they were read at. */
  pack(version: number): BoxIndex {
    const n = this.count;
    const ids = new Int32Array(new SharedArrayBuffer(n * Int32Array.BYTES_PER_ELEMENT));
    ids.set(this.ids.subarray(0, n));
    if (n === 0) return { version, data: null, ids };
    const index = new Flatbush(n, 16, Float64Array, SharedArrayBuffer);
    const b = this.boxes;
    for (let i = 0; i < n; i++) index.add(b[4 * i] ?? 0, b[4 * i + 1] ?? 0, b[4 * i + 2] ?? 0, b[4 * i + 3] ?? 0);
    index.finish();
    if (!(index.data instanceof SharedArrayBuffer)) throw new Error('flatbush did not keep its data in the SharedArrayBuffer it was given');
    return { version, data: index.data, ids };
  }

  private grow(atLeast: number): void {
    let size = this.ids.length;
    while (size < atLeast) size *= 2;
    const ids = new Int32Array(size);
    ids.set(this.ids);
    const boxes = new Float64Array(4 * size);
    boxes.set(this.boxes);
    [this.ids, this.boxes] = [ids, boxes];
  }
}

/** How many footprints' boxes meet the box, and which: those that meet it, as their boxes tell, and the rest. */
export function footprintsIn(index: BoxIndex, box: Box): BoxFootprints {
  const meeting: number[] = [];
  const across: number[] = [];
  if (index.data !== null) {
    const [minX, minY, maxX, maxY] = box;
    Flatbush.from(index.data).search(minX, minY, maxX, maxY, (i, x0, y0, x1, y1) => {
      (boxTellsMeeting([x0, y0, x1, y1], box) ? meeting : across).push(index.ids[i] ?? 0);
      return false;
    });
  }
  return { version: index.version, box, meeting, across };
}

/** How many stored boxes meet the box: the spatial index's candidates, as boxCandidates counts them. */
export function boxesMeeting(index: BoxIndex, [minX, minY, maxX, maxY]: Box): number {
  let count = 0;
  if (index.data !== null) {
    Flatbush.from(index.data).search(minX, minY, maxX, maxY, () => {
      count++;
      return false;
    });
  }
  return count;
}

/**
 * How far a stored box may lie outside its footprint's own on each side: SQLite's R*Tree
 * rounds each side outwards to a 32-bit float (less than 2^-16 of a degree within ±256°);
 * PostGIS's boxes are exact.
 */
const ROUNDING = 1e-4;

/**
 * Whether a footprint whose stored box meets the box surely meets it: its box lies inside;
 * or its box lies within the box's rows (columns) and its footprint's own easternmost or
 * westernmost (northernmost or southernmost) extent, a vertex, surely lies within the box's
 * columns (rows), rounding counted: then that vertex is in the box. Most footprints across
 * one edge of a view are so; those across a corner, or wider than the view, are tested exactly.
 */
export function boxTellsMeeting([x0, y0, x1, y1]: Box, [minX, minY, maxX, maxY]: Box): boolean {
  const rowsWithin = y0 >= minY && y1 <= maxY;
  const columnsWithin = x0 >= minX && x1 <= maxX;
  if (rowsWithin && columnsWithin) return true;
  if (rowsWithin) return (x1 - ROUNDING >= minX && x1 <= maxX) || (x0 >= minX && x0 + ROUNDING <= maxX);
  if (columnsWithin) return (y1 - ROUNDING >= minY && y1 <= maxY) || (y0 >= minY && y0 + ROUNDING <= maxY);
  return false;
}

/** A box's footprints, every one, for one catalogue version: their ids ascending. */
export interface BoxMatches {
  readonly version: number;
  readonly ids: readonly number[];
}

/**
 * The catalogue version and those of the footprints `found` tests exactly that meet the box,
 * in one statement (one snapshot by itself, one round trip on PostgreSQL): with those its
 * boxes tell of, every footprint meeting the box, when the version is the index's.
 */
export function* boxMatchesPlan(found: BoxFootprints, dialect: Dialect): Plan<BoxMatches> {
  const { bind, params } = binder([dialect.idsParam(found.across)]);
  // One text whatever the box: prepared once (PostgreSQL), its plan the same for every list.
  const exact = `${dialect.idIn('f.id', '$1')} AND ${dialect.boxCheck(found.box, bind)}`;
  const sql = `SELECT v.value AS version, f.id AS id FROM meta v LEFT JOIN features f ON ${exact} WHERE v.key = 'catalogue_version'`;
  const rows = yield* selectRows<{ version: string; id: number | string | null }>({ sql, params });
  const met = rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)]));
  // Sorted as a typed array: numerically, without a comparator called for each pair.
  const ids = new Int32Array(found.meeting.length + met.length);
  ids.set(found.meeting);
  ids.set(met, found.meeting.length);
  return { version: Number(rows[0]?.version ?? 0), ids: Array.from(ids.sort()) };
}
