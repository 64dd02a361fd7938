// The /ogc/ query and path parameters as OpenAPI 3.0 parameter objects. The items path of
// each collection lists exactly what the route accepts (items-params.ts: itemsParameterNames),
// every simple queryable included with `style: form, explode: false` and its property's
// type, which is how QGIS finds them; `limit` is the component QGIS reads its page sizes from.
import { OGC_DEFAULT_LIMIT, OGC_MAX_LIMIT } from '../../constants.js';
import { FILTER_LANGUAGES } from '../../ogc/cql2/filter.js';
import { CRS84 } from '../../ogc/paths.js';
import { OFFERED_CRS_URIS } from '../../ogc/crs.js';
import { LIST_SEPARATOR, type CatalogueCollection } from '../../catalogue/collections.js';
import { propertiesOf, propertyOf } from '../../ogc/properties.js';
import { itemsParameterNames, simpleQueryables } from '../../http/ogc/items-params.js';
import { FORMATS, ITEMS_FORMATS } from '../../http/ogc/query.js';
import { DOWNLOAD_FORMATS, DOWNLOAD_FORMAT_INFO } from '../../ogc/downloads.js';
import type { JsonObject } from '../components.js';
import { propertyTypeSchema, temporalSentence } from './schemas.js';

const query = (name: string, description: string, schema: JsonObject, more: JsonObject = {}): JsonObject => ({
  name,
  in: 'query',
  required: false,
  description,
  ...more,
  schema,
});
/** A comma-separated list (OpenAPI's form style, not exploded). */
const LIST = { style: 'form', explode: false };

/** OGC API – Features Part 2: `crs`, `bbox-crs` and `filter-crs`, each an offered CRS's URI (ogc/crs.ts). */
function crsParameters(): Record<string, JsonObject> {
  const schema = { type: 'string', format: 'uri', enum: [...OFFERED_CRS_URIS], default: CRS84 };
  return {
    crs: query('crs', 'The coordinate reference system of the geometries answered (every download format too), named in the answer\'s `Content-Crs` header; EPSG:4326 is latitude first. CRS84 when absent.', schema),
    'bbox-crs': query('bbox-crs', 'The coordinate reference system of `bbox`, in its axis order (EPSG:4326: latitude first; EPSG:3857 and EPSG:27700: easting, northing in metres). CRS84 when absent.', schema),
    'filter-crs': query('filter-crs', 'The coordinate reference system of the geometries and BBOXes in `filter`, in its axis order. CRS84 when absent.', schema),
  };
}

/** The parameters every collection's items share, under `#/components/parameters/<name>`. */
const SHARED: Record<string, JsonObject> = {
  limit: query(
    'limit',
    `At most this many items on a page (${OGC_DEFAULT_LIMIT} when absent). A larger value is answered with ${OGC_MAX_LIMIT}, never refused; follow the \`next\` link for the rest.`,
    { type: 'integer', minimum: 1, maximum: OGC_MAX_LIMIT, default: OGC_DEFAULT_LIMIT },
    LIST,
  ),
  bbox: query(
    'bbox',
    'Only items whose footprint intersects this box (the true polygons, not their boxes): west,south,east,north in CRS84 longitude and latitude, or six numbers with the lowest and highest height (ignored); in another CRS with `bbox-crs` (the lowest then the highest value of each of its axes, in its axis order).',
    { type: 'array', oneOf: [{ minItems: 4, maxItems: 4 }, { minItems: 6, maxItems: 6 }], items: { type: 'number' } },
    LIST,
  ),
  filter: query('filter', 'A CQL2 expression over the queryables (`/queryables`), in the language `filter-lang` names; joined with the other filters by AND.', { type: 'string' }),
  'filter-lang': query('filter-lang', 'The language of `filter`: `cql2-text` when absent.', { type: 'string', enum: [...FILTER_LANGUAGES], default: 'cql2-text' }),
  q: query('q', 'Full-text search: items whose text has every word (the same search as `/api/v1/`).', { type: 'string' }),
  after: query('after', 'The page after this key: the value of a `next` link (follow the link; do not make one).', { type: 'string' }),
  before: query('before', 'The page before this key: the value of a `prev` link.', { type: 'string' }),
  offset: query('offset', '`0` only, the first page (some clients send it on every request); later pages are reached through `next` links, by key.', { type: 'integer', enum: [0] }),
  skipGeometry: query('skipGeometry', '`true`: every geometry is null.', { type: 'boolean', default: false }),
  f: query('f', 'The format: `json` answers the same body as `application/json`; `html`, the page for people; absent, the resource\'s own media type (or its page, when `Accept` prefers text/html to JSON).', { type: 'string', enum: [...FORMATS] }),
  /** `f` where there is no page (the API definition, queryables and schemas). */
  fJson: query('f', 'The format: `json` answers the same body as `application/json`; absent, the resource\'s own media type.', { type: 'string', enum: ['json'] }),
  ...crsParameters(),
};

export function ogcComponentParameters(): Record<string, JsonObject> {
  return {
    ...SHARED,
    featureId: { name: 'featureId', in: 'path', required: true, description: 'The catalogue id of the record.', schema: { type: 'integer', minimum: 0 } },
  };
}

export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

function datetime(collection: CatalogueCollection): JsonObject {
  return query(
    'datetime',
    `An RFC 3339 date or date-time, or an interval of two joined by \`/\` (\`..\` or nothing: open), ${temporalSentence(collection)}.`,
    { type: 'string' },
  );
}

function sortby(collection: CatalogueCollection): JsonObject {
  const names = propertiesOf(collection).filter((p) => p.sortable).map((p) => p.name);
  return query(
    'sortby',
    'The order of items: property names, each with `+` (ascending, the default; `%2B` in a URL) or `-` (descending); the id breaks ties.',
    { type: 'array', items: { type: 'string', enum: names.flatMap((n) => [n, `+${n}`, `-${n}`]) } },
    LIST,
  );
}

function properties(collection: CatalogueCollection): JsonObject {
  return query(
    'properties',
    'Only these properties in each item (none when empty).',
    { type: 'array', items: { type: 'string', enum: propertiesOf(collection).map((p) => p.name) } },
    LIST,
  );
}

/** `name=value`: items whose property equals the value (a list property: has an item equal to it). */
function simpleQueryable(collection: CatalogueCollection, name: string): JsonObject | null {
  const property = propertyOf(collection, name);
  if (property === undefined || !simpleQueryables(collection).includes(property)) return null;
  const matches = property.list ? `one of whose \`${name}\` (joined by "${LIST_SEPARATOR}") is the value exactly` : `whose \`${name}\` equals the value`;
  return query(name, `${property.title}: items ${matches}.`, propertyTypeSchema(property), LIST);
}

/** The items path's `f`: a page as JSON, or the whole result as a file. */
const ITEMS_FORMAT = query(
  'f',
  `\`json\`: the page as \`application/json\`; ${DOWNLOAD_FORMATS.map((f) => `\`${f}\`: ${DOWNLOAD_FORMAT_INFO[f].title}`).join('; ')} — the whole filtered result as one file (Content-Disposition: attachment), \`limit\`, \`after\` and \`before\` refused.`,
  { type: 'string', enum: [...ITEMS_FORMATS] },
);

/** The items path's parameters, in the order the route lists them. */
export function itemsParameters(collection: CatalogueCollection): JsonObject[] {
  return itemsParameterNames(collection).map((name) => {
    if (name === 'f') return ITEMS_FORMAT;
    if (SHARED[name] !== undefined) return parameterRef(name);
    const own = name === 'datetime' ? datetime(collection) : name === 'sortby' ? sortby(collection) : name === 'properties' ? properties(collection) : simpleQueryable(collection, name);
    if (own === null) throw new Error(`the items parameter ${name} of ${collection} is not described`);
    return own;
  });
}

/** One item's parameters (besides its path's featureId). */
export function itemParameters(collection: CatalogueCollection, names: readonly string[]): JsonObject[] {
  return names.map((name) => {
    if (name === 'properties') return properties(collection);
    if (SHARED[name] === undefined) throw new Error(`the item parameter ${name} is not described`);
    return parameterRef(name);
  });
}

/** The parameters of a path that takes only those of `names` shared by every path (f). */
export function sharedParameters(names: readonly string[]): JsonObject[] {
  return names.map((name) => {
    if (SHARED[name] === undefined) throw new Error(`the parameter ${name} is not described`);
    return parameterRef(name);
  });
}
