// What a read asks of the database, written once for both stores. A plan is a generator
// that yields SQL queries and receives their rows: SQLite runs it synchronously inside a
// transaction, PostgreSQL asynchronously inside a snapshot. A page costs a fixed number of
// queries, never one per record.
import {
  groupExtras,
  toDocumentRow,
  toFeatureRow,
  toImageRow,
  toMediaRow,
  type FlatExtra,
  type FlatFeature,
  type FlatRecord,
} from './rows.js';
import { binder, type Dialect } from './dialect.js';
import { filterConditions, type Driving } from './filter-sql.js';
import { hasFilters, type Filters } from './filters.js';
import type { BoxMatches } from './box-index.js';
import {
  SELECT_CATEGORIES_IN_USE,
  SELECT_THUMBNAILS_IN_USE,
  SELECT_META,
  SELECT_VERSION,
  byId,
  byPosition,
  matchingIds,
  idRange,
  selectFeatures,
  matchingSlice,
  selectRecords,
  selectExtras,
  EXTRA_KINDS,
  type RecordCollection,
} from './sql.js';
import { paginate, type PagePosition, type PageRequest, type PageSlice } from '../pagination.js';
import type { CollectionName, Detail, FeatureRow, LinkedPictures, Listing, Overview, RowsByCollection } from './store.js';

export interface Query {
  sql: string;
  params: unknown[];
  /**
   * Filtered queries: planned for their own values each time (a generic plan chosen for
   * one filter's values can be a hundred times slower for another's).
   */
  adHoc?: boolean;
  /**
   * Each row handed over as it is read and none kept: the plan receives no rows. For reads
   * of the whole catalogue (the map's), which SQLite then makes in bounded memory where an
   * array of 400,000 rows at scale 100 grew the server by 150 MB.
   */
  each?: (row: unknown) => void;
}

export type Plan<R> = Generator<Query, R, unknown[]>;

/**
 * A query's rows as the plan selected them. What the database sends is checked by no type
 * (as with pg's `query<T>`): the one place a plan takes its rows' shape on trust.
 */
export function* selectRows<T>(query: Query): Generator<Query, T[], unknown[]> {
  return (yield query) as T[];
}

/** Rows read already (by a plan that chose their SQL) as the shape that SQL selects. */
const selected = <T>(rows: unknown[]): T[] => rows as T[];

/** Each collection's flat rows → its typed rows (features with what belongs to them: a query more). */
type RowMaker<Row> = (flat: unknown[], dialect: Dialect | null) => Plan<Row[]>;

function recordRows<Row>(toRow: (flat: FlatRecord) => Row): RowMaker<Row> {
  // A plan of no query: its rows are read already.
  return function* (flat) {
    return selected<FlatRecord>(flat).map(toRow);
  };
}

const ROW_MAKERS: { readonly [C in CollectionName]: RowMaker<RowsByCollection[C]> } = {
  features: (flat, dialect) => featureRows(selected<FlatFeature>(flat), dialect),
  images: recordRows(toImageRow),
  documents: recordRows(toDocumentRow),
  media: recordRows(toMediaRow),
};

/** Each collection's SQL of a page by position, of one by id, and of the rows of a list of ids. */
const SQL: { readonly [C in CollectionName]: { page: string; byId: string; inIds: (ids: string) => string } } = {
  features: { page: selectFeatures(byPosition('f')), byId: selectFeatures(byId('f')), inIds: (ids) => selectFeatures(`f.id IN (${ids})`) },
  images: recordSql('images'),
  documents: recordSql('documents'),
  media: recordSql('media'),
};

const EXTRAS_BY_RANGE = selectExtras(idRange);

function recordSql(collection: RecordCollection): { page: string; byId: string; inIds: (ids: string) => string } {
  return { page: selectRecords(collection, byPosition('x')), byId: selectRecords(collection, byId('x')), inIds: (ids) => selectRecords(collection, `x.id IN (${ids})`) };
}

export function* metaValue(key: string): Plan<string | undefined> {
  const rows = yield* selectRows<{ value: string }>({ sql: SELECT_META, params: [key] });
  return rows[0]?.value;
}

export function* versionPlan(): Plan<number> {
  const rows = yield* selectRows<{ value: string }>({ sql: SELECT_VERSION, params: [] });
  return Number(rows[0]?.value ?? 0);
}

/**
 * What belongs to a page of features, a fixed number of queries: by id range when the page
 * is contiguous in id order (an unfiltered page), by id list otherwise.
 */
function* featureRows(flat: FlatFeature[], dialect: Dialect | null): Plan<FeatureRow[]> {
  const first = flat[0];
  const last = flat[flat.length - 1];
  if (!first || !last) return [];
  let sql = EXTRAS_BY_RANGE;
  let ids: unknown[] = [first.id, last.id];
  if (dialect) {
    sql = selectExtras({ width: 1, on: (column, n) => dialect.idIn(column, `$${n}`) });
    ids = [dialect.idsParam(flat.map((f) => f.id))];
  }
  const params = EXTRA_KINDS.flatMap(() => ids);
  const extras = groupExtras(yield* selectRows<FlatExtra>({ sql, params }));
  return flat.map((f) => toFeatureRow(f, extras));
}

function toRows<C extends CollectionName>(collection: C, flat: unknown[], dialect: Dialect | null = null): Plan<RowsByCollection[C][]> {
  const make: RowMaker<RowsByCollection[C]> = ROW_MAKERS[collection];
  return make(flat, dialect);
}

/** A list page: the stored count and a position range, or with filters a counted query. */
export function* listPlan<C extends CollectionName>(
  collection: C,
  request: PageRequest,
  filters: Filters,
  dialect: Dialect,
  boxMatches?: BoxMatches,
): Plan<Listing<RowsByCollection[C]>> {
  const version = yield* versionPlan();
  if (boxMatches?.version === version) return { version, ...(yield* idsListPlan(collection, request, boxMatches.ids, dialect)) };
  if (hasFilters(filters)) return { version, ...(yield* filteredListPlan(collection, request, filters, dialect)) };
  const count = Number((yield* metaValue(`count.${collection}`)) ?? 0);
  const slice = paginate(request, count);
  if (!slice) return { version, count, page: null };
  const flat = yield { sql: SQL[collection].page, params: [slice.offset, slice.offset + slice.limit] };
  const rows = yield* toRows(collection, flat);
  return { version, count, page: { rows, position: positionOf(slice) } };
}

function* filteredListPlan<C extends CollectionName>(
  collection: C,
  request: PageRequest,
  filters: Filters,
  dialect: Dialect,
): Plan<Omit<Listing<RowsByCollection[C]>, 'version'>> {
  const { count, page } = yield* matchingPagePlan(collection, request, filters, dialect);
  if (page === null) return { count, page: null };
  const flat = yield { sql: SQL[collection].inIds(page.ids), params: page.params, adHoc: true };
  const rows = yield* toRows(collection, flat, dialect);
  return { count, page: { rows, position: positionOf(page.slice) } };
}

/**
 * A list of the matches already found, every one (a map view's, ids ascending, which is the
 * list's order: positions are given in id order): the page's rows by id.
 */
function* idsListPlan<C extends CollectionName>(
  collection: C,
  request: PageRequest,
  ids: readonly number[],
  dialect: Dialect,
): Plan<Omit<Listing<RowsByCollection[C]>, 'version'>> {
  const count = ids.length;
  const slice = paginate(request, count);
  if (!slice) return { count, page: null };
  const pageIds = ids.slice(slice.offset, slice.offset + slice.limit);
  // One text whatever the ids: prepared once (PostgreSQL).
  const flat = yield { sql: SQL[collection].inIds(`SELECT id FROM ${collection} WHERE ${dialect.idIn('id', '$1')}`), params: [dialect.idsParam(pageIds)] };
  const rows = yield* toRows(collection, flat, dialect);
  return { count, page: { rows, position: positionOf(slice) } };
}

/**
 * A filtered list's matches: how many, and the SQL of the page's ids (`ids`, in id order,
 * with its `params`) when the page exists. The list's rows and the site's search cards
 * (site-plans.ts) are read by it, so both find exactly the same records.
 */
export function* matchingPagePlan(
  collection: CollectionName,
  request: PageRequest,
  filters: Filters,
  dialect: Dialect,
): Plan<{ count: number; page: { ids: string; params: unknown[]; slice: PageSlice } | null }> {
  const words = wordsOnly(filters);
  const driving = yield* drivingIndex(filters, dialect, collection);
  const { bind, params } = binder();
  // Words alone are matched in the search table alone; other filters over the records.
  const matching = words
    ? dialect.textMatch(`${collection}_search`, words, bind)
    : matchingIds(collection, filterConditions(collection, filters, dialect, bind, driving).join(' AND '));
  const count = countOf(yield { sql: `SELECT count(*) AS n FROM (${matching}) m`, params: [...params], adHoc: true });
  const slice = paginate(request, count);
  if (!slice) return { count, page: null };
  const { limit, offset, fromEnd } = readingOrder(slice, count);
  const all = dialect.walkChecksEachRow && listsFewer(count, offset + limit, Number((yield* metaValue(`count.${collection}`)) ?? 0));
  const ids = matchingSlice(matching, { limit: bind(limit), offset: bind(offset), fromEnd, all });
  return { count, page: { ids, params, slice } };
}

/**
 * The words when they are the only filter: then matched in the search table alone, which
 * holds a row for every listed record (every feature, published records) and no other
 * (catalogue-finish.ts), so no record is read to count them or to choose a page's.
 */
function wordsOnly(filters: Filters): readonly string[] | null {
  const { words, ...others } = filters;
  return words && !hasFilters(others) ? words : null;
}

/** How many records of the collection match the words (every listed record has a row in its search table). */
function textCount(collection: CollectionName, words: readonly string[], dialect: Dialect): Query {
  const { bind, params } = binder();
  return { sql: `SELECT count(*) AS n FROM (${dialect.textMatch(`${collection}_search`, words, bind)}) m`, params, adHoc: true };
}

/**
 * Whether listing all `count` matches reads fewer rows than walking the `listed` records in
 * id order until `reach` matches are met would, if the matches were spread evenly (sql.ts
 * matchingSlice). PostgreSQL's planner weighs the same but prefers the walk, which bunched
 * matches make far longer (11,000 rows for the first 20 of 2,558 "fourn" at scale 100).
 */
export function listsFewer(count: number, reach: number, listed: number): boolean {
  return count * count < reach * listed;
}

const countOf = (rows: unknown[]) => Number(selected<{ n: number | string }>(rows)[0]?.n ?? 0);

/**
 * Up to this many footprints in the box, the box drives a query with words, however rare
 * they are: checking a candidate's text costs about what listing 40 matches of a prefix
 * does on SQLite, so this many cost no more than the commonest word's matches (244,000 of
 * "street" at scale 100), and the matches need not be counted first.
 */
export const FEW_BOX_CANDIDATES = 5_000;

/**
 * Which index drives a query with both words and a box (filter-sql.ts): the box while it
 * holds few footprints, else whichever finds fewer candidates, the words' matches counted
 * and the box's footprints counted up to that many.
 */
export function* drivingIndex(filters: Filters, dialect: Dialect, collection: CollectionName = 'features'): Plan<Driving> {
  const { words, bbox } = filters;
  if (!words || !bbox) return 'box';
  if ((yield* boxCandidates(bbox, FEW_BOX_CANDIDATES, dialect)) <= FEW_BOX_CANDIDATES) return 'box';
  const matches = countOf(yield textCount(collection, words, dialect));
  return (yield* boxCandidates(bbox, matches, dialect)) <= matches ? 'box' : 'text';
}

/**
 * boxCandidates for a map's view, where a view holding the catalogue's whole extent (which
 * imports and applies keep, every footprint within it) is answered from the stored count of
 * features: PostgreSQL counts such a box by a sequential scan, which starts where the last
 * one stopped (synchronized scans) and, where an import's updates of every row left the
 * table's first half empty, took 175–260 ms once in about 40 views (scale 100) against 10 ms.
 */
export function* viewCandidates(box: NonNullable<Filters['bbox']>, atMost: number, dialect: Dialect): Plan<number> {
  const extent = yield* catalogueExtentPlan(dialect);
  if (extent === null) return 0;
  const [minX, minY, maxX, maxY] = extent;
  const holdsAll = box[0] <= minX && box[1] <= minY && box[2] >= maxX && box[3] >= maxY;
  if (!holdsAll) return yield* boxCandidates(box, atMost, dialect);
  return Math.min(Number((yield* metaValue('count.features')) ?? 0), atMost + 1);
}

/** How many footprints the spatial index finds in the box (their bounding boxes meet it), counted up to one past `atMost`. */
export function* boxCandidates(box: NonNullable<Filters['bbox']>, atMost: number, dialect: Dialect): Plan<number> {
  const { bind, params } = binder();
  return countOf(yield { sql: dialect.boxCandidates(box, atMost + 1, bind), params, adHoc: true });
}

/** A slice of `count` matches as read: from the start, or, past the middle, from the end. */
export function readingOrder(slice: PageSlice, count: number): { limit: number; offset: number; fromEnd: boolean } {
  const end = Math.min(slice.offset + slice.limit, count);
  if (slice.offset <= count - end) return { limit: slice.limit, offset: slice.offset, fromEnd: false };
  return { limit: end - slice.offset, offset: count - end, fromEnd: true };
}

const positionOf = ({ page, lastPage }: PageSlice): PagePosition => ({ page, lastPage });

export function* getPlan<C extends CollectionName>(collection: C, id: number): Plan<Detail<RowsByCollection[C]>> {
  const version = yield* versionPlan();
  const flat = yield { sql: SQL[collection].byId, params: [id] };
  if (flat.length === 0) return { version, row: null };
  return { version, row: (yield* toRows(collection, flat))[0] ?? null };
}

type ExtentRow = Record<'min_x' | 'min_y' | 'max_x' | 'max_y', number | null>;

/** The footprints' extent, of all or of those `featureIds` selects; null when there are none. */
export function* extentPlan(dialect: Dialect, featureIds?: string): Plan<[number, number, number, number] | null> {
  const [e] = yield* selectRows<ExtentRow>({ sql: dialect.extent(featureIds), params: [] });
  if (!e || e.min_x === null || e.min_y === null || e.max_x === null || e.max_y === null) return null;
  return [Number(e.min_x), Number(e.min_y), Number(e.max_x), Number(e.max_y)];
}
type CategoryUseRow = { id: number; name: string; description: string; thumbnail: string; features: number | string; rank: number | string };

/** The meta row the import writes every footprint's extent to (a scan of them all otherwise). */
export const EXTENT_META_KEY = 'extent';

/** The extent the last import wrote, or, for a database imported before imports wrote it, computed. */
export function* catalogueExtentPlan(dialect: Dialect): Plan<[number, number, number, number] | null> {
  const stored = yield* metaValue(EXTENT_META_KEY);
  if (stored !== undefined) return storedExtent(JSON.parse(stored));
  return yield* extentPlan(dialect);
}

/** The extent as the import wrote it: four numbers, or null. */
function storedExtent(value: unknown): [number, number, number, number] | null {
  if (!Array.isArray(value) || value.length !== 4) return null;
  const [minX, minY, maxX, maxY] = value.map(Number);
  return minX === undefined || minY === undefined || maxX === undefined || maxY === undefined ? null : [minX, minY, maxX, maxY];
}

/**
 * The pictures answers link: the stored count of published images, and the categories in
 * use with a thumbnail, each found in use by one probe of the categories index (the
 * overview's legend counts every feature of every category: 160 ms at scale 100).
 */
export function* linkedPicturesPlan(): Plan<LinkedPictures> {
  const images = Number((yield* metaValue('count.images')) ?? 0);
  return { images, thumbnails: countOf(yield { sql: SELECT_THUMBNAILS_IN_USE, params: [] }) };
}

/** The map page's opening view and legend: three small queries, whatever the catalogue's size. */
export function* overviewPlan(dialect: Dialect): Plan<Overview> {
  const version = yield* versionPlan();
  const extent = yield* catalogueExtentPlan(dialect);
  const rows = yield* selectRows<CategoryUseRow>({ sql: SELECT_CATEGORIES_IN_USE, params: [] });
  const categories = rows.map((c) => ({ id: Number(c.id), name: c.name, description: c.description, thumbnail: c.thumbnail, features: Number(c.features), rank: Number(c.rank) }));
  return { version, extent, categories };
}

/** A query's rows as its plan takes them: handed to `each` one at a time (none returned), else all at once. */
export function handOver(query: Query, rows: unknown[]): unknown[] {
  if (!query.each) return rows;
  for (const row of rows) query.each(row);
  return [];
}

/** Drives a plan with a synchronous query function (SQLite). */
export function runSync<R>(plan: Plan<R>, query: (q: Query) => unknown[]): R {
  let step = plan.next();
  while (!step.done) step = plan.next(query(step.value));
  return step.value;
}

/** Drives a plan with an asynchronous query function (PostgreSQL). */
export async function runAsync<R>(plan: Plan<R>, query: (q: Query) => Promise<unknown[]>): Promise<R> {
  let step = plan.next();
  while (!step.done) step = plan.next(await query(step.value));
  return step.value;
}
