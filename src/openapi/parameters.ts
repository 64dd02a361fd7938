// The query and path parameters as OpenAPI parameter objects (`#/components/parameters/…`):
// the syntax params.ts and filters.ts accept, as patterns and ranges. Which filter a
// collection takes comes from store/filters.ts, as for the HTTP layer.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import { FEATURE_TYPES } from '../catalogue/format.js';
import {
  DEFAULT_PAGE_SIZE,
  FORMAT_VALUES,
  LAST_PAGE,
  MAX_PAGE_SIZE,
  PARAM_FORMAT,
  PARAM_PAGE,
  PARAM_PAGE_SIZE,
  type Collection,
} from '../constants.js';
import type { EndpointKind } from '../endpoints/endpoints.js';
import { filterParametersOf } from '../store/filters.js';
import { MAX_QUERY_LENGTH, MAX_QUERY_WORDS, MAX_WORD_LENGTH } from '../search/text.js';
import type { JsonObject } from './components.js';

const ID = { type: 'integer', minimum: 0, maximum: 999_999_999 };
const NUMBER = '[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?';
const YEAR = '-?\\d{1,4}';
const DATE = '\\d{4}-\\d{2}-\\d{2}';
const TYPE = `(${FEATURE_TYPES.join('|')})`;
const commaList = (item: string) => `^\\s*${item}\\s*(,\\s*${item}\\s*){0,99}$`;

/**
 * The example goes in the schema's `examples` (JSON Schema 2020-12) and in the description
 * for people, never in the parameter's `example`: Swagger UI's "Try it out" fills in a
 * parameter's `example` (or `examples`), and a first request with every filter set at once
 * finds nothing. Swagger UI shows the description, not the schema's `examples`.
 */
function query(name: string, description: string, schema: JsonObject, example?: string | number): JsonObject {
  if (example === undefined) return { name, in: 'query', required: false, description, schema };
  return { name, in: 'query', required: false, description: `${description} Example: \`${example}\`.`, schema: { ...schema, examples: [example] } };
}

const PAGING: Record<string, JsonObject> = {
  [PARAM_PAGE]: query(
    PARAM_PAGE,
    `Page number (1 is the first), or \`${LAST_PAGE}\`. A page past the last, 0, negative or not a number: 404 "Invalid page.".`,
    { oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', const: LAST_PAGE }] },
  ),
  [PARAM_PAGE_SIZE]: query(
    PARAM_PAGE_SIZE,
    `Records per page, ${DEFAULT_PAGE_SIZE} by default. Above ${MAX_PAGE_SIZE} means ${MAX_PAGE_SIZE}; an invalid value is ignored.`,
    { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  ),
  [PARAM_FORMAT]: query(
    PARAM_FORMAT,
    'Kept for clients of the original service: both values give the same JSON, and links repeat it. Any other value: 404.',
    { type: 'string', enum: [...FORMAT_VALUES] },
  ),
};

const FILTERS: Record<string, JsonObject> = {
  q: query(
    'q',
    `Full-text search: every word must match (a prefix, any case, any accents); at most ${MAX_QUERY_WORDS} words of at most ${MAX_WORD_LENGTH} characters.`,
    { type: 'string', maxLength: MAX_QUERY_LENGTH },
    'brick lane',
  ),
  author: query('author', 'Features: with a published image, document or video by this author. Records: by this author.', ID, 2),
  categories: query('categories', 'In any of these categories (ids, comma-separated).', { type: 'string', pattern: commaList('\\d{1,9}') }, '2,11'),
  tags: query('tags', 'Carrying any of these tags (any case, comma-separated); records: their feature\'s tags.', { type: 'string' }, 'pub,music hall'),
  year_range: query('year_range', '`Y`: current ≥ Y; `Y1,Y2`: Y1 ≤ current ≤ Y2.', { type: 'string', pattern: `^\\s*${YEAR}\\s*(,\\s*${YEAR}\\s*)?$` }, '1850,1899'),
  date_range: query('date_range', '`D`: created on or after D; `D1,D2`: created between them (inclusive).', { type: 'string', pattern: `^\\s*${DATE}\\s*(,\\s*${DATE}\\s*)?$` }, '2016-01-01,2016-12-31'),
  [F.type]: query(F.type, 'Of any of these types (comma-separated).', { type: 'string', pattern: commaList(TYPE) }, 'PLACE,GREATER_WHITECHAPEL'),
  site: query('site', 'Belonging to this site (id).', ID, 1),
  street: query('street', 'On this street (the whole name, any case).', { type: 'string' }, 'Fournier Street'),
  [F.postalCode]: query(F.postalCode, 'With this postcode (any case).', { type: 'string' }, 'E1 6TP'),
  bbox: query(
    'bbox',
    'Features whose footprint meets the box (a true polygon test); records whose feature does. minLon,minLat,maxLon,maxLat in degrees (WGS84), min not above max.',
    { type: 'string', pattern: `^\\s*${NUMBER}\\s*(,\\s*${NUMBER}\\s*){3}$` },
    '-0.0705,51.5165,-0.0685,51.5180',
  ),
  feature: query('feature', 'Attached to this feature (id).', ID, 6133),
};

/** Features have no dates (the filter is ignored) and media none either (a 400): not offered. */
const NOT_OFFERED: Partial<Record<Collection, readonly string[]>> = { features: ['date_range'], media: ['date_range'] };

const ID_PARAMETER: JsonObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The record\'s id. Not a whole number, or no such published record: 404.',
  schema: { type: 'integer', minimum: 1 },
};

export function componentParameters(): Record<string, JsonObject> {
  return { ...PAGING, ...FILTERS, id: ID_PARAMETER };
}

const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

export function listParameters(collection: Collection): JsonObject[] {
  const filters = filterParametersOf(collection).filter((name) => !NOT_OFFERED[collection]?.includes(name));
  for (const name of filters) if (FILTERS[name] === undefined) throw new Error(`filter ${name} is not documented`);
  return [...Object.keys(PAGING), ...filters].map(parameterRef);
}

export const formatParameters = (): JsonObject[] => [parameterRef(PARAM_FORMAT)];
export const detailParameters = (): JsonObject[] => [parameterRef(PARAM_FORMAT)];
/** The path's own parameters, declared once on the path item so that every operation has them. */
export const pathParameters = (kind: EndpointKind): JsonObject[] => (kind === 'detail' ? [parameterRef('id')] : []);
