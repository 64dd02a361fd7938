// The OGC face's reads, written once for both stores (read-plans.ts drives them): a page of
// items by key (keyset paging: the sort keys and the id of the last row, never an offset,
// so the last page costs what the first does), the exact count of what matches, one item,
// and each collection's extents.
import { setImmediate } from 'node:timers/promises';
import { JsonText } from '../../json-text.js';
import type { Expression } from '../../ogc/cql2/ast.js';
import { toSql } from '../../ogc/cql2/to-sql.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { TEMPORAL_PROPERTY, propertyOf, type OgcProperty } from '../../ogc/properties.js';
import { binder, type Bind, type Dialect } from '../dialect.js';
import type { BoxMatches } from '../box-index.js';
import { ogcSql, type OgcSql } from './ogc-sql.js';
import { StoreError, type CatalogueReader, type Snapshot } from '../store.js';
import { catalogueExtentPlan, extentPlan, metaValue, selectRows, versionPlan, type Plan, type Query } from '../read-plans.js';
import { widened } from '../../search/box.js';

export type KeyValue = string | number | boolean | null;

export interface SortKey {
  readonly property: string;
  readonly descending: boolean;
}

/** Where a page starts: just after (a `next` link) or just before (`prev`) a row's keys. */
export interface Cursor {
  readonly after: boolean;
  /** One value per sort key, then the id. */
  readonly keys: readonly KeyValue[];
}

export interface ItemsRequest {
  /** Every condition (bbox, datetime, name=value, filter) as one CQL2 tree, or none. */
  readonly filter: Expression | null;
  /** Folded words of `q` (search/text.ts), as /api/v1/ finds records. */
  readonly words: readonly string[] | null;
  /** Without the id: it is always the last key, ascending unless the first key descends. */
  readonly sortBy: readonly SortKey[];
  readonly cursor: Cursor | null;
  readonly limit: number;
  /**
   * The page ends before the row that would take its footprints' text past this many bytes
   * (at least one row; `next` goes on from there): limit × the record limits is hundreds of
   * MB. None: `limit` alone bounds it.
   */
  readonly maxBytes?: number;
  /**
   * Features read as the GeoJSON text kept on each row (store/apply/item-texts.ts), for an answer
   * with every property and the footprint in CRS84: each row's `text` set, its `values`
   * holding the sort keys only, its `geometry` not read.
   */
  readonly asText?: boolean;
  /**
   * The caller counted the candidates of the page's box: at most MAP_VIEW_FOOTPRINTS
   * (work/classes.ts), so a first page reads every match's id once, counts them, and reads
   * its rows by id: the exact footprint test runs once per candidate, not for the page and
   * again for the count.
   */
  readonly fewCandidates?: boolean;
  /**
   * Every footprint in the page's box, as the server's box index found them (box-index.ts),
   * with fewCandidates: used when the page's own snapshot is of their version; of another
   * version, ignored (the box's ids are then read here).
   */
  readonly boxMatches?: BoxMatches;
}

export interface ItemRow {
  readonly id: number;
  readonly geometry: JsonText;
  /** Stored properties by name, typed as declared, and the extras the URL properties are made from. */
  readonly values: Readonly<Record<string, KeyValue>>;
  /** Read as text (ItemsRequest.asText): the item's stored text (render/ogc/items.ts storedItemText). */
  readonly text?: string;
}

export interface ItemsPage {
  readonly version: number;
  readonly numberMatched: number;
  readonly rows: readonly ItemRow[];
  /** The keys after which the next page starts, before which the previous one ends; null when there is none. */
  readonly next: readonly KeyValue[] | null;
  readonly prev: readonly KeyValue[] | null;
}

export interface ItemDetail {
  readonly version: number;
  readonly row: ItemRow | null;
}

export interface CollectionExtent {
  readonly bbox: [number, number, number, number] | null;
  /** Earliest and latest instant (RFC 3339) of the temporal property; null when it has no values. */
  readonly interval: [string, string] | null;
}

export interface OgcExtents {
  readonly version: number;
  readonly extents: Readonly<Record<CatalogueCollection, CollectionExtent>>;
}

interface Key {
  readonly sql: string;
  readonly descending: boolean;
  readonly nullable: boolean;
  readonly property: OgcProperty;
}

/** `count: false` leaves numberMatched -1 (a download's later batches: counted once, with the first). */
export function* itemsPlan(collection: CatalogueCollection, request: ItemsRequest, dialect: Dialect, { count = true } = {}): Plan<ItemsPage> {
  const version = yield* versionPlan();
  const sql = ogcSql(collection, dialect);
  const { bind, params } = binder();
  const conditions = matchConditions(sql, collection, request, dialect, bind);
  const filtered = conditions.length > 0;
  const where = [sql.from, ...conditions].join(' AND ');
  const keys = sortKeys(sql, collection, request.sortBy, dialect);
  const forward = request.cursor?.after ?? true;
  const select = request.asText === true && collection === 'features' ? textSelect(keys) : sql.select;
  const matched = filtered && request.fewCandidates === true && request.cursor === null && request.sortBy.length === 0
    ? request.boxMatches?.version === version
      ? request.boxMatches.ids
      : (yield* selectRows<{ id: number | string }>({ sql: `SELECT ${sql.properties['id']} AS id ${where} ORDER BY 1`, params: [...params], adHoc: true })).map((r) => Number(r.id))
    : null;
  const window = (cursor: readonly KeyValue[] | null, limit: number): Query => {
    // Every match's id already read (fewCandidates): the page's rows by id, the filter not run again.
    const { bind: bindWindow, params: windowParams } = matched === null ? binder([...params]) : binder();
    const base = matched === null ? where : `${sql.from} AND ${dialect.idIn(sql.properties['id']!, bindWindow(dialect.idsParam(matched.slice(0, request.limit + 1))))}`;
    const seek = cursor ? [keysetCondition(keys, cursor, forward, bindWindow, dialect)] : [];
    const order = keys.map((k) => orderTerm(k, forward)).join(', ');
    const query = `SELECT ${select} ${[base, ...seek].join(' AND ')} ORDER BY ${order} LIMIT ${bindWindow(limit + 1)}`;
    // Rows by id (matched): one text, prepared once, whatever the filter was.
    return { sql: query, params: windowParams, adHoc: matched === null && (filtered || request.sortBy.length > 0) };
  };
  const { read, more } = yield* readWindows(collection, request, keys, window);
  let numberMatched: number;
  if (!count) {
    numberMatched = -1;
  } else if (matched !== null) {
    numberMatched = matched.length;
  } else if (!filtered) {
    numberMatched = Number((yield* metaValue(`count.${collection}`)) ?? 0);
  } else if (request.cursor === null && !more) {
    // A first page that holds every match has counted them: a map view's box, a narrow
    // filter. The count query would read the same rows again (bench --peers: the bbox page).
    numberMatched = read.length;
  } else {
    const counted = yield* selectRows<{ n: number }>({ sql: `SELECT count(*) AS n ${where}`, params: [...params], adHoc: true });
    numberMatched = Number(counted[0]?.n ?? 0);
  }
  const rows = forward ? read : read.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const hasNext = forward ? more : request.cursor !== null;
  const hasPrev = forward ? request.cursor !== null : more;
  return {
    version,
    numberMatched,
    rows,
    next: hasNext && last ? keysOf(last, keys) : null,
    prev: hasPrev && first ? keysOf(first, keys) : null,
  };
}

/** Rows a page reads at first when it may be cut short by its bytes (windowRows: then more, while they fit): its memory stays near the budget. */
const WINDOW_ROWS = 100;

/**
 * A page's rows in windows (windowRows), each after the last row of the one before,
 * until `limit` rows, the byte budget, or the end; `more`: a row lies beyond the last one
 * taken. A page of at most WINDOW_ROWS rows is one query, as it always was.
 */
function* readWindows(
  collection: CatalogueCollection, request: ItemsRequest, keys: readonly Key[], window: (cursor: readonly KeyValue[] | null, limit: number) => Query,
): Plan<{ read: ItemRow[]; more: boolean }> {
  const budget = request.maxBytes ?? Infinity;
  const read: ItemRow[] = [];
  let bytes = 0;
  let cursor = request.cursor?.keys ?? null;
  for (;;) {
    const wanted = request.limit - read.length;
    const size = budget === Infinity ? wanted : Math.min(wanted, windowRows(read.length, bytes, budget));
    const flat = yield* selectRows<Record<string, unknown>>(window(cursor, size));
    for (const found of flat.slice(0, size)) {
      const row = itemRow(collection, found);
      bytes += typeof found[GEOMETRY_LENGTH] === 'number' ? found[GEOMETRY_LENGTH] : row.geometry.text.length;
      if (read.length > 0 && bytes > budget) return { read, more: true };
      read.push(row);
    }
    if (flat.length <= size) return { read, more: false };
    if (read.length === request.limit) return { read, more: true };
    const last = read.at(-1);
    if (last === undefined) return { read, more: true };
    cursor = keysOf(last, keys);
  }
}

/**
 * The next window's rows: WINDOW_ROWS at first; then as many as were read so far (each window
 * doubles the page), while rows of their average size still fit the budget left. A long page
 * of small rows is a few statements, not one per 100 rows (each running the filter's
 * subqueries again: `categories=Pubs&limit=10000` was 30 of them), and a page of large
 * footprints stays in windows of 100, its memory near the budget.
 */
function windowRows(rowsRead: number, bytesRead: number, budget: number): number {
  if (rowsRead === 0) return WINDOW_ROWS;
  const fitting = Math.floor(((budget - bytesRead) * rowsRead) / Math.max(bytesRead, 1));
  return Math.max(WINDOW_ROWS, Math.min(rowsRead, fitting));
}

/** A whole result, every parameter but the page's: what a download reads. */
export type ItemsQuery = Omit<ItemsRequest, 'cursor' | 'limit'>;

/** Every item of a collection, in id order: a whole download (the `rel=enclosure` files, `export --format`). */
export const WHOLE_COLLECTION: ItemsQuery = { filter: null, words: null, sortBy: [] };

/**
 * Every matching item, read in batches by key inside one snapshot the store holds open
 * (one catalogue version) until `close`, which the reader must call (batches() calls it
 * when it ends, is returned from or fails).
 */
export interface ItemStream {
  readonly version: number;
  readonly numberMatched: number;
  batches(): AsyncGenerator<readonly ItemRow[]>;
  close(): Promise<void>;
}

/**
 * Rows a download batch reads: few enough to keep memory bounded (a batch's rows live while
 * its bytes wait for the socket, long enough to be promoted: at 500 a GeoJSON download of
 * scale 10 grew the heap by 43 MB, at 100 by 30), enough to keep queries few.
 */
export const DOWNLOAD_BATCH_ROWS = 100;

/**
 * Every item the query matches, in batches by key, all from one catalogue version: a snapshot
 * the store holds (store.ts Snapshot) until the stream is closed. Downloads, export.
 */
export async function openItemStream(reader: CatalogueReader, collection: CatalogueCollection, query: ItemsQuery, batchRows = DOWNLOAD_BATCH_ROWS): Promise<ItemStream> {
  const snapshot = await reader.snapshot();
  try {
    return await streamIn(snapshot, collection, query, batchRows);
  } catch (error) {
    await snapshot.close();
    throw error;
  }
}

/** The batches of a download, each read in the held snapshot. */
async function streamIn(snapshot: Snapshot, collection: CatalogueCollection, query: ItemsQuery, batchRows: number): Promise<ItemStream> {
  const close = () => snapshot.close();
  const first = await snapshot.run((dialect) => itemsPlan(collection, { ...query, cursor: null, limit: batchRows }, dialect));
  return {
    version: first.version,
    numberMatched: first.numberMatched,
    async *batches() {
      try {
        let page = first;
        for (;;) {
          if (page.rows.length > 0) yield page.rows;
          if (page.next === null) return;
          // SQLite reads a batch without I/O: without a turn of the event loop here, a download
          // (or a GeoPackage being built) would hold every other request until it ended.
          await setImmediate();
          const cursor = { after: true, keys: page.next };
          page = await snapshot.run((dialect) => itemsPlan(collection, { ...query, cursor, limit: batchRows }, dialect, { count: false }));
          if (page.version !== first.version) throw new Error(`the catalogue version changed inside a download's snapshot (${first.version} → ${page.version})`);
        }
      } finally {
        await close();
      }
    },
    close,
  };
}

export function* itemPlan(collection: CatalogueCollection, id: number, dialect: Dialect): Plan<ItemDetail> {
  const version = yield* versionPlan();
  const sql = ogcSql(collection, dialect);
  const flat = yield* selectRows<Record<string, unknown>>({ sql: `SELECT ${sql.select} ${sql.from} AND ${sql.properties.id} = $1`, params: [id] });
  const found = flat[0];
  return { version, row: found ? itemRow(collection, found) : null };
}

export interface ItemIds {
  version: number;
  ids: Record<CatalogueCollection, number[]>;
}

/** Every item's id, by collection, each in order: what the sitemap lists (no row read whole). */
export function* itemIdsPlan(dialect: Dialect): Plan<ItemIds> {
  const version = yield* versionPlan();
  const ids = { features: yield* idsOf('features', dialect), images: yield* idsOf('images', dialect), documents: yield* idsOf('documents', dialect), media: yield* idsOf('media', dialect) };
  return { version, ids };
}

function* idsOf(collection: CatalogueCollection, dialect: Dialect): Plan<number[]> {
  const sql = ogcSql(collection, dialect);
  const rows = yield* selectRows<{ id: number | string }>({ sql: `SELECT ${sql.properties.id} AS id ${sql.from} ORDER BY 1`, params: [] });
  return rows.map((row) => Number(row.id));
}

/** One collection's extent, with the catalogue version it was read at. */
export interface VersionedExtent {
  readonly version: number;
  readonly extent: CollectionExtent;
}

/** A collection's footprints' extent and its temporal property's range. */
export function* collectionExtentPlan(collection: CatalogueCollection, dialect: Dialect): Plan<VersionedExtent> {
  const version = yield* versionPlan();
  return { version, extent: yield* extentOf(collection, dialect) };
}

function* extentOf(collection: CatalogueCollection, dialect: Dialect): Plan<CollectionExtent> {
  const sql = ogcSql(collection, dialect);
  // Every footprint's extent is kept by imports and applies; a list's is its published records' features'.
  const bbox = collection === 'features' ? yield* catalogueExtentPlan(dialect) : yield* extentOfSome(dialect, `SELECT x.feature_id ${sql.ownFrom}`);
  return { bbox, interval: yield* temporalRange(collection, sql) };
}

/** The extent of the features `among` names (a query of feature ids from records `x`), whole or in slices of ids (Dialect.extentSliceIds). */
function* extentOfSome(dialect: Dialect, among: string): Plan<[number, number, number, number] | null> {
  const slice = dialect.extentSliceIds;
  if (slice === null) return yield* extentPlan(dialect, among);
  const [range] = yield* selectRows<{ low: number | string | null; high: number | string | null }>({ sql: 'SELECT min(id) AS low, max(id) AS high FROM features', params: [] });
  if (!range || range.low === null || range.high === null) return null;
  let box: [number, number, number, number] | null = null;
  for (let from = Number(range.low); from <= Number(range.high); from += slice) {
    box = widened(box, yield* extentPlan(dialect, `${among} AND x.feature_id BETWEEN ${from} AND ${from + slice - 1}`));
  }
  return box;
}

function* temporalRange(collection: CatalogueCollection, sql: OgcSql): Plan<[string, string] | null> {
  const name = TEMPORAL_PROPERTY[collection];
  if (name === null) return null;
  const column = sql.properties[name];
  // Its own rows alone: joined to authors and features, images' took 1 s at scale 100 (SQLite).
  const [range] = yield* selectRows<{ low: unknown; high: unknown }>({ sql: `SELECT min(${column}) AS low, max(${column}) AS high ${sql.ownFrom}`, params: [] });
  if (!range || range.low === null || range.high === null) return null;
  if (name === 'current') return [`${yearText(range.low)}-01-01T00:00:00Z`, `${yearText(range.high)}-12-31T23:59:59Z`];
  return [`${String(range.low)}T00:00:00Z`, `${String(range.high)}T23:59:59Z`];
}

const yearText = (year: unknown) => String(Number(year)).padStart(4, '0');

function matchConditions(sql: OgcSql, collection: CatalogueCollection, request: ItemsRequest, dialect: Dialect, bind: Bind): string[] {
  const conditions: string[] = [];
  if (request.words) conditions.push(`${sql.properties.id} IN (${dialect.textMatch(`${collection}_search`, request.words, bind)})`);
  if (request.filter) conditions.push(toSql(request.filter, sql.queryables, dialect, bind));
  return conditions;
}

/** The keys a page is ordered by: the id is unique, so keys after it change nothing; without it, it breaks ties (ascending). */
export function orderKeys(sortBy: readonly SortKey[]): SortKey[] {
  const upToId = sortBy.findIndex((k) => k.property === 'id');
  return upToId === -1 ? [...sortBy, { property: 'id', descending: false }] : sortBy.slice(0, upToId + 1);
}

function sortKeys(sql: OgcSql, collection: CatalogueCollection, sortBy: readonly SortKey[], dialect: Dialect): Key[] {
  const key = (name: string, descending: boolean): Key => {
    const property = propertyOf(collection, name);
    const column = sql.properties[name];
    if (property === undefined || column === undefined) throw new Error(`${name} is not a property of ${collection}`);
    return { sql: dialect.sortKey(column, property.type === 'string'), descending, nullable: property.nullable, property };
  };
  return orderKeys(sortBy).map((k) => key(k.property, k.descending));
}

/** Ascending keys put nulls first, descending ones last: one order, reversed exactly for `prev`. */
function orderTerm(key: Key, forward: boolean): string {
  const descending = key.descending !== !forward;
  const nulls = key.nullable ? (descending ? ' NULLS LAST' : ' NULLS FIRST') : '';
  return `${key.sql} ${descending ? 'DESC' : 'ASC'}${nulls}`;
}

/** Rows strictly after `values` in the order (forward), or strictly before them (backward). */
function keysetCondition(keys: readonly Key[], values: readonly KeyValue[], forward: boolean, bind: Bind, dialect: Dialect): string {
  const param = (value: KeyValue) => bind(typeof value === 'boolean' ? dialect.bindBoolean(value) : value);
  const from = (i: number): string => {
    const key = keys[i];
    if (key === undefined) return 'FALSE';
    const value = values[i] ?? null;
    const descending = key.descending !== !forward;
    const beyond = descending ? '<' : '>';
    if (i === keys.length - 1) return `${key.sql} ${beyond} ${param(value)}`;
    // Placeholders are numbered in the order they are written: this key's before the rest's.
    if (value === null) {
      return descending ? `(${key.sql} IS NULL AND ${from(i + 1)})` : `((${key.sql} IS NULL AND ${from(i + 1)}) OR ${key.sql} IS NOT NULL)`;
    }
    const past = `${key.sql} ${beyond} ${param(value)}${descending && key.nullable ? ` OR ${key.sql} IS NULL` : ''}`;
    const equal = `${key.sql} = ${param(value)}`;
    return `(${past} OR (${equal} AND ${from(i + 1)}))`;
  };
  return from(0);
}

function keysOf(row: ItemRow, keys: readonly Key[]): KeyValue[] {
  return keys.map((k) => row.values[k.property.name] ?? null);
}

/** A footprint's length, read beside a row's stored text: what the byte budget counts, as when the footprint is read. */
const GEOMETRY_LENGTH = 'geometry_length';

/** The columns of a page read as text: the id, the text, the footprint's length and the sort keys (for its cursors). */
function textSelect(keys: readonly Key[]): string {
  const sortKeys = keys.filter((k) => k.property.name !== 'id').map((k) => `${k.sql} AS ${k.property.name}`);
  return ['f.id AS id', 'f.item_text AS item_text', `length(f.geometry) AS ${GEOMETRY_LENGTH}`, ...sortKeys].join(', ');
}

/** Not read: a row read as text has its footprint in its text. */
const UNREAD = new JsonText('null');

/** A result row → typed values (SQLite gives booleans as 0/1; counts may come as text); a row read as text keeps it. */
export function itemRow(collection: CatalogueCollection, flat: Readonly<Record<string, unknown>>): ItemRow {
  const values: Record<string, KeyValue> = {};
  for (const [name, value] of Object.entries(flat)) {
    if (NOT_VALUES.has(name)) continue;
    values[name] = value === null || value === undefined ? null : typed(propertyOf(collection, name), value);
  }
  if (!('item_text' in flat)) return { id: Number(flat.id), geometry: new JsonText(String(flat.geometry)), values };
  if (typeof flat.item_text !== 'string') throw new StoreError(`feature ${String(flat.id)} has no stored text: run heritage-api migrate, or import the catalogue again`);
  return { id: Number(flat.id), geometry: UNREAD, values, text: flat.item_text };
}

/** Columns of a row that are not its values: the footprint, or the stored text and the footprint's length. */
const NOT_VALUES = new Set(['geometry', 'item_text', GEOMETRY_LENGTH]);

function typed(property: OgcProperty | undefined, value: unknown): KeyValue {
  switch (property?.type) {
    case 'integer': return Number(value);
    case 'boolean': return Boolean(value);
    default: return String(value);
  }
}
