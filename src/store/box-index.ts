// A packed index of every footprint's bounding box for one catalogue version (flatbush),
// built once per version in a worker thread and kept by the server (work/guarded-store.ts
// keepFor): a map view's footprints are found in microseconds, where the store's spatial
// index hands them over one row at a time (SQLite's R*Tree: 1.2 ms for 700 ids at scale 10,
// bench --peers). Its data lives in SharedArrayBuffers, so it crosses from the worker that
// built it without a copy. Its boxes are the store's own (dialect.ts featureBoxes: SQLite's
// R*Tree rounded outwards, PostGIS's exact), each holding its footprint: a footprint whose box
// lies inside a view's meets the view, as does most of those across one of its edges
// (boxTellsMeeting); only the rest need the exact test.
import Flatbush from 'flatbush';
import { binder, type Dialect } from './dialect.js';
import { selectRows, versionPlan, type Plan } from './read-plans.js';

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

interface BoxRow {
  id: number | string;
  min_x: number | null;
  min_y: number | null;
  max_x: number | null;
  max_y: number | null;
}

/** Every footprint's box, read in one snapshot with its version, packed. */
export function* boxIndexPlan(dialect: Dialect): Plan<BoxIndex> {
  const version = yield* versionPlan();
  const { from, columns } = dialect.featureBoxes('f');
  const rows = yield* selectRows<BoxRow>({ sql: `SELECT f.id AS id, ${columns} FROM ${from}`, params: [] });
  return packBoxes(version, rows.filter((r) => r.min_x !== null));
}

function packBoxes(version: number, rows: readonly BoxRow[]): BoxIndex {
  const ids = new Int32Array(new SharedArrayBuffer(rows.length * Int32Array.BYTES_PER_ELEMENT));
  if (rows.length === 0) return { version, data: null, ids };
  const index = new Flatbush(rows.length, 16, Float64Array, SharedArrayBuffer);
  for (const [i, row] of rows.entries()) {
    ids[i] = Number(row.id);
    index.add(Number(row.min_x), Number(row.min_y), Number(row.max_x), Number(row.max_y));
  }
  index.finish();
  if (!(index.data instanceof SharedArrayBuffer)) throw new Error('flatbush did not keep its data in the SharedArrayBuffer it was given');
  return { version, data: index.data, ids };
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
