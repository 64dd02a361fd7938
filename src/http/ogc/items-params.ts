// The items query (OGC API – Features Parts 1 and 3, sorting, property selection) → a
// store request and the rendering options, or a 400 naming the parameter. Unlike
// /api/v1/, an unknown or repeated parameter is refused, as the standard requires.
// bbox, datetime and `name=value` are turned into CQL2 trees and joined with the filter
// by AND, so the store translates one language.
import type { Expression, Scalar, SpatialOperand } from '../../ogc/cql2/ast.js';
import { FILTER_LANGUAGES, type Cql2Reader } from '../../ogc/cql2/filter.js';
import { LIST_SEPARATOR, CATALOGUE_COLLECTIONS, type CatalogueCollection } from '../../catalogue/collections.js';
import { TEMPORAL_PROPERTY, propertiesOf, type OgcProperty } from '../../ogc/properties.js';
import { OGC_DEFAULT_LIMIT, OGC_MAX_LIMIT } from '../../constants.js';
import { OGC_ERRORS } from '../../errors.js';
import { bboxProblem, escapeLike } from '../../ogc/cql2/literals.js';
import { boxInCrs84, filterInCrs84, spatialChecksIn } from '../../ogc/cql2/in-crs.js';
import { DEFAULT_CRS, OFFERED_CRS_WORDS, offeredCrs, type OfferedCrs } from '../../ogc/crs.js';
import type { Cursor, ItemsRequest, KeyValue, SortKey } from '../../store/ogc/ogc-plans.js';
import { isStoredInteger, STORED_INTEGER } from '../../store/stored-values.js';
import { parseQueryWords } from '../api/filters.js';
import { readCursor } from './cursor.js';
import { checkParameters, type OgcQuery } from './query.js';

export interface ItemsOptions {
  /** The properties to include, in declaration order; null: all. */
  readonly properties: readonly string[] | null;
  readonly skipGeometry: boolean;
  /** The CRS of the geometries written (`crs`; CRS84 when absent). */
  readonly crs: OfferedCrs;
}

/** The parameters every items request takes, besides the collection's queryables. */
export const ITEMS_PARAMETERS = ['f', 'limit', 'bbox', 'datetime', 'filter', 'filter-lang', 'filter-crs', 'sortby', 'properties', 'skipGeometry', 'q', 'after', 'before', 'offset', 'crs', 'bbox-crs'] as const;

const invalid = OGC_ERRORS.invalidParameter;

/**
 * The parameters a collection's items path takes, in the order the API definition lists them.
 * `datetime` on every collection (/req/core/fc-time-definition A): media have no date, so
 * there it matches every item (fc-time-response C).
 */
export function itemsParameterNames(collection: CatalogueCollection): string[] {
  return [...ITEMS_PARAMETERS, ...simpleQueryables(collection).map((p) => p.name)];
}

/**
 * What the paths other than the items take: their own parameters (`f`; on a single item also
 * `properties`, `skipGeometry`) and the items' others, ignored there. GDAL appends its dataset
 * URL's query string (`OAPIF:…/ogc?datetime=…`) to every request it makes: the landing page,
 * conformance, API definition and collections (every collection's parameters), a collection's
 * own documents and its single items (`-fid`; its own).
 */
export function datasetQueryParameterNames(collection: CatalogueCollection | null): string[] {
  const collections = collection === null ? CATALOGUE_COLLECTIONS : [collection];
  return [...new Set(collections.flatMap(itemsParameterNames))];
}

/** Queryables that work as `name=value` (every stored queryable; none clashes with a parameter). */
export function simpleQueryables(collection: CatalogueCollection): readonly OgcProperty[] {
  return propertiesOf(collection).filter((p) => p.queryable);
}

export function parseItemsQuery(collection: CatalogueCollection, query: OgcQuery, cql2: Cql2Reader): { request: ItemsRequest; options: ItemsOptions } {
  checkParameters(query, itemsParameterNames(collection));
  const conditions: Expression[] = [];
  const bbox = query.get('bbox');
  const bboxCrs = parseCrs('bbox-crs', query);
  if (bbox !== undefined) conditions.push({ kind: 'intersects', left: { kind: 'property', name: 'geometry' }, right: parseBbox(bbox, bboxCrs) });
  const datetime = query.get('datetime');
  if (datetime !== undefined) conditions.push(...datetimeConditions(collection, datetime));
  for (const property of simpleQueryables(collection)) {
    const value = query.get(property.name);
    if (value !== undefined) conditions.push(equalsCondition(property, literalOf(property, value)));
  }
  const filter = query.get('filter');
  const filterCrs = parseCrs('filter-crs', query);
  if (filter !== undefined) conditions.push(filterInCrs84(filterCrs, readFilter(cql2, filter, query.get('filter-lang'), filterCrs)));
  else if (query.get('filter-lang') !== undefined) readFilterLanguage(query.get('filter-lang'));
  const sortBy = parseSortBy(collection, query.get('sortby'));
  checkOffset(query.get('offset'));
  const q = query.get('q');
  const request: ItemsRequest = {
    filter: conditions.length === 0 ? null : conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and', args: conditions },
    words: q === undefined ? null : parseQueryWords(q),
    sortBy,
    cursor: parseCursor(collection, query, sortBy),
    limit: parseLimit(query.get('limit')),
  };
  return { request, options: parseItemOptions(collection, query) };
}

/** `properties` and `skipGeometry`: how items are written (a single item's path takes them too). */
export function parseItemOptions(collection: CatalogueCollection, query: OgcQuery): ItemsOptions {
  return {
    properties: parseProperties(collection, query.get('properties')),
    skipGeometry: parseBoolean('skipGeometry', query.get('skipGeometry')) ?? false,
    crs: parseCrs('crs', query),
  };
}

/** `crs`, `bbox-crs` or `filter-crs`: an offered CRS's URI (crs.ts); CRS84 when absent. */
export function parseCrs(name: 'crs' | 'bbox-crs' | 'filter-crs', query: OgcQuery): OfferedCrs {
  const uri = query.get(name);
  if (uri === undefined) return DEFAULT_CRS;
  const crs = offeredCrs(uri);
  if (crs === undefined) throw invalid(name, `${OFFERED_CRS_WORDS}, not ${JSON.stringify(uri)}`);
  return crs;
}

/**
 * `offset=0`, the first page, is taken (as a no-op) because clients send it on every request
 * (@camptocamp/ogc-client does); any other offset is refused: later pages are reached by key,
 * through `next` links.
 */
function checkOffset(value: string | undefined): void {
  if (value !== undefined && value !== '0') throw invalid('offset', '0 only: the pages after the first are reached through their next links');
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return OGC_DEFAULT_LIMIT;
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) throw invalid('limit', `a whole number from 1 (at most ${OGC_MAX_LIMIT} are returned)`);
  return Math.min(Number(value), OGC_MAX_LIMIT);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The box in `bbox-crs` (its axis order) → the CRS84 region it covers. */
function parseBbox(value: string, crs: OfferedCrs): SpatialOperand {
  const expected = crs.uri === DEFAULT_CRS.uri
    ? 'four numbers west,south,east,north (or six, with the lowest and highest height) in longitude and latitude (CRS84), west ≤ east, south ≤ north'
    : `four numbers (or six, with the lowest and highest height): the lowest then the highest value of each axis of ${crs.uri}, in its axis order, within [${crs.bounds.join(', ')}]`;
  const parts = value.split(',');
  if ((parts.length !== 4 && parts.length !== 6) || !parts.every((p) => NUMBER.test(p.trim()))) throw invalid('bbox', expected);
  const numbers = parts.map((p) => Number(p.trim()));
  // CQL2's BBOX rule, so that the parameter and the filter accept the same boxes.
  if (crs.uri === DEFAULT_CRS.uri) {
    if (bboxProblem(numbers) !== undefined) throw invalid('bbox', expected);
    return { kind: 'bbox', value: numbers };
  }
  const region = spatialChecksIn(crs).bbox(numbers) === undefined ? boxInCrs84(crs, numbers) : null;
  if (region === null) throw invalid('bbox', expected);
  return region;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 date or date-time → its calendar date in UTC (YYYY-MM-DD), or null. */
function instantDate(text: string): string | null {
  if (DATE.test(text)) {
    const time = Date.parse(`${text}T00:00:00Z`);
    return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== text ? null : text;
  }
  if (!DATE_TIME.test(text)) return null;
  const time = Date.parse(text.toUpperCase());
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

/**
 * `datetime` on the collection's temporal property: for features the year `current` (an
 * instant matches its year, an interval the years from its start's to its end's), for
 * images and documents the date `created` (an instant its day). An item without a date
 * (`current` or `created` null, every media item) matches any value (/req/core/fc-time-response
 * C: "the datetime parameter SHALL match all features … not associated with a temporal
 * geometry, too"); the value is still checked.
 */
function datetimeConditions(collection: CatalogueCollection, value: string): Expression[] {
  const name = TEMPORAL_PROPERTY[collection];
  const expected = 'an RFC 3339 date or date-time, or an interval of two with "/" ("..": open)';
  const ends = value.split('/');
  if (ends.length > 2) throw invalid('datetime', expected);
  const dates = ends.map((end) => (end === '..' || (end === '' && ends.length === 2) ? null : instantDate(end)));
  if (dates.some((d, i) => d === null && !(ends.length === 2 && (ends[i] === '..' || ends[i] === '')))) throw invalid('datetime', expected);
  const [start = null, end = start] = ends.length === 1 ? [dates[0] ?? null] : dates;
  if (ends.length === 2 && start === null && end === null) throw invalid('datetime', expected);
  if (start !== null && end !== null && start > end) throw invalid('datetime', `${expected}, its start not after its end`);
  if (name === null) return [];
  const property: Scalar = { kind: 'property', name };
  const bound = (date: string): Scalar => (name === 'current' ? { kind: 'number', value: Number(date.slice(0, 4)) } : { kind: 'date', value: date });
  const conditions: Expression[] = [];
  if (start !== null) conditions.push({ kind: 'compare', op: '>=', left: property, right: bound(start) });
  if (end !== null) conditions.push({ kind: 'compare', op: '<=', left: property, right: bound(end) });
  const dated: Expression = conditions.length === 1 ? (conditions[0] as Expression) : { kind: 'and', args: conditions };
  return [{ kind: 'or', args: [{ kind: 'isNull', value: property }, dated] }];
}

/**
 * `name=value`: the property equals the value; a list property (category names) has an item
 * equal to it: the whole text, or the value first, last or between two separators.
 */
function equalsCondition(property: OgcProperty, literal: Scalar): Expression {
  const name: Scalar = { kind: 'property', name: property.name };
  const equals: Expression = { kind: 'compare', op: '=', left: name, right: literal };
  if (!property.list || literal.kind !== 'string') return equals;
  const item = escapeLike(literal.value);
  const like = (pattern: string): Expression => ({ kind: 'like', value: name, pattern: { kind: 'string', value: pattern } });
  return { kind: 'or', args: [equals, like(`${item}${LIST_SEPARATOR}%`), like(`%${LIST_SEPARATOR}${item}`), like(`%${LIST_SEPARATOR}${item}${LIST_SEPARATOR}%`)] };
}

function literalOf(property: OgcProperty, value: string): Scalar {
  switch (property.type) {
    case 'integer':
      // Past the stored range nothing matches, and PostgreSQL would fail on the value: refused like CQL2's.
      if (!/^-?\d{1,15}$/.test(value) || !isStoredInteger(Number(value))) {
        throw invalid(property.name, `a whole number from ${STORED_INTEGER.min} to ${STORED_INTEGER.max}`);
      }
      return { kind: 'number', value: Number(value) };
    case 'boolean': {
      const flag = parseBoolean(property.name, value);
      return { kind: 'boolean', value: flag ?? false };
    }
    case 'date':
      if (!DATE.test(value) || instantDate(value) !== value) throw invalid(property.name, 'a date YYYY-MM-DD');
      return { kind: 'date', value };
    case 'string':
      // A value holding NUL was refused as the query was read (query.ts).
      return { kind: 'string', value };
  }
}

function parseBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw invalid(name, 'true or false');
}

function readFilterLanguage(language: string | undefined): void {
  if (language !== undefined && !(FILTER_LANGUAGES as readonly string[]).includes(language)) throw invalid('filter-lang', FILTER_LANGUAGES.join(', '));
}

function readFilter(cql2: Cql2Reader, filter: string, language: string | undefined, crs: OfferedCrs): Expression {
  readFilterLanguage(language);
  return cql2.read(filter, language, crs.uri === DEFAULT_CRS.uri ? undefined : spatialChecksIn(crs));
}

function parseSortBy(collection: CatalogueCollection, value: string | undefined): SortKey[] {
  if (value === undefined) return [];
  const sortable = propertiesOf(collection).filter((p) => p.sortable).map((p) => p.name);
  const expected = `property names, comma-separated, each optionally prefixed with + (ascending) or - (descending), of: ${sortable.join(', ')}`;
  const keys = value.split(',').map((item): SortKey => {
    const match = /^([+-]?)([A-Za-z_][A-Za-z0-9_]*)$/.exec(item.trim());
    if (!match || !sortable.includes(match[2] ?? '')) throw invalid('sortby', expected);
    return { property: match[2] ?? '', descending: match[1] === '-' };
  });
  if (new Set(keys.map((k) => k.property)).size !== keys.length) throw invalid('sortby', `${expected}, each once`);
  return keys;
}

function parseProperties(collection: CatalogueCollection, value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const known = propertiesOf(collection).map((p) => p.name);
  const names = value === '' ? [] : value.split(',').map((n) => n.trim());
  if (names.some((n) => !known.includes(n))) throw invalid('properties', `property names, comma-separated, of: ${known.join(', ')}`);
  return known.filter((n) => names.includes(n));
}

function parseCursor(collection: CatalogueCollection, query: OgcQuery, sortBy: readonly SortKey[]): Cursor | null {
  const after = query.get('after');
  const before = query.get('before');
  if (after !== undefined && before !== undefined) throw invalid('before', 'no value alongside "after": a page is either after a row or before one');
  const token = after ?? before;
  if (token === undefined) return null;
  const keys: KeyValue[] | null = readCursor(token, collection, sortBy);
  if (keys === null) throw invalid(after !== undefined ? 'after' : 'before', 'the value of a next or prev link of this server, with the same sortby');
  return { after: after !== undefined, keys };
}
