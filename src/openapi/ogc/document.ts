// The OpenAPI 3.0 document of the OGC face (GET /ogc/api, the `service-desc` of the landing
// page), built from the declarations the routes run on: the paths (ogc/paths.ts), the
// collections and their properties (ogc/properties.ts), the items parameters
// (http/ogc/items-params.ts) and the errors (errors.ts). Paths are written relative to the
// landing page, its URL being the one server (`{base}/ogc`): QGIS and GDAL look items paths
// up as `/collections/{id}/items`. Built once per server; only `servers` differs.
import { DOWNLOAD_FORMATS, DOWNLOAD_FORMAT_INFO } from '../../ogc/downloads.js';
import { CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON, CONTENT_TYPE_OPENAPI_30, CONTENT_TYPE_SCHEMA, OGC_PREFIX, TILEJSON_PATH, TILES_TEMPLATE_PATH } from '../../constants.js';
import type { Cql2Reader } from '../../ogc/cql2/filter.js';
import { OGC_PATHS, TILED_COLLECTION, WEB_MERCATOR_QUAD } from '../../ogc/paths.js';
import { CATALOGUE_COLLECTIONS, type CatalogueCollection } from '../../catalogue/collections.js';
import { COLLECTION_TITLES } from '../../ogc/properties.js';
import { datasetQueryParameterNames, parseItemOptions, parseItemsQuery, simpleQueryables } from '../../http/ogc/items-params.js';
import { checkParameters, FORMAT_PARAMETERS, ITEM_PARAMETERS, readFormat, readItemsFormat, type OgcQuery } from '../../http/ogc/query.js';
import { OGC_TITLE } from '../../render/ogc/landing.js';
import { membersOf, type JsonObject } from '../components.js';
import { PACKAGE_VERSION } from '../../package-files.js';
import { itemParameters, itemsParameters, ogcComponentParameters, parameterRef, sharedParameters } from './parameters.js';
import { badRequestResponse, commonErrors, CONTENT_TYPE_PAGE, errorRef, METHOD_NOT_ALLOWED, ogcComponentResponses, okResponse, withContentCrs, type BadQuery } from './responses.js';
import { componentPrefix, itemSchemaName, itemsSchemaName, ogcComponentSchemas } from './schemas.js';

export interface OgcDocumentOptions {
  /** RATE_LIMIT is on: /ogc/ answers may be 429. */
  rateLimited: boolean;
  /** The routes' CQL2 reader, to make the invalid-filter example. */
  cql2: () => Cql2Reader;
}

/** `/ogc/collections/features` → `/collections/features`: paths below the one server. */
const relative = (path: string) => path.slice(OGC_PREFIX.length - 1);

const READ_ONLY =
  `Read-only: GET and HEAD (the same headers, no body). Any other method is answered 405 (the \`${METHOD_NOT_ALLOWED}\` response of the components); OPTIONS is answered only as a CORS preflight (else 404).`;

const INFO = {
  title: OGC_TITLE,
  version: PACKAGE_VERSION,
  description: [
    'The catalogue of mapped historic buildings and places as OGC API – Features (Parts 1 and 3, CQL2, sorting, property selection): four collections of GeoJSON features with flat, typed properties, paged by key (`next` and `prev` links) with an exact `numberMatched`.',
    'An unknown or repeated query parameter, or an invalid value, is answered 400 with an OGC exception body `{"code": …, "description": …}`, as is every error here.',
    `Paths are relative to the landing page (the server URL). A readable version of this document is at ${OGC_PATHS.docs}; the original API is at /api/v1/.`,
  ].join('\n\n'),
  license: { name: 'MIT' },
};

/** The refusals every path shows: its own parameters decide the unknown-parameter sentence. */
const FORMAT_REFUSALS: readonly BadQuery[] = [
  { name: 'unknownParameter', query: '?limt=10', what: 'A parameter the path does not take.' },
  { name: 'repeatedParameter', query: '?f=json&f=html', what: 'A parameter given twice with different values (the same value again is taken).' },
  { name: 'invalidFormat', query: '?f=xml', what: 'A format the path does not serve.' },
];

export function buildOgcApiDocument(options: OgcDocumentOptions): JsonObject {
  const paths: Record<string, JsonObject> = {
    [relative(OGC_PATHS.landing)]: simplePath(options, 'getLandingPage', 'capabilities', 'The landing page: links to this document, the conformance classes and the collections.', 'LandingPage', [CONTENT_TYPE_JSON, CONTENT_TYPE_PAGE], true, datasetQueryParameterNames(null)),
    [relative(OGC_PATHS.conformance)]: simplePath(options, 'getConformance', 'capabilities', 'The conformance classes this server meets.', 'ConfClasses', [CONTENT_TYPE_JSON, CONTENT_TYPE_PAGE], true, datasetQueryParameterNames(null)),
    [relative(OGC_PATHS.collections)]: simplePath(options, 'getCollections', 'capabilities', 'Every collection: title, extent (spatial and temporal) and links.', 'Collections', [CONTENT_TYPE_JSON, CONTENT_TYPE_PAGE], true, datasetQueryParameterNames(null)),
    [relative(OGC_PATHS.api)]: simplePath(options, 'getApi', 'capabilities', 'This document.', 'OpenApiDocument', [CONTENT_TYPE_OPENAPI_30, CONTENT_TYPE_JSON], false, datasetQueryParameterNames(null)),
    ...Object.fromEntries(CATALOGUE_COLLECTIONS.flatMap((c) => collectionPaths(options, c))),
    ...tilePaths(options),
  };
  return {
    openapi: '3.0.3',
    info: INFO,
    tags: [
      { name: 'capabilities', description: 'The landing page, conformance, the collections and this document.' },
      { name: 'tiles', description: `OGC API – Tiles: the ${TILED_COLLECTION} collection's footprints as vector tiles in ${WEB_MERCATOR_QUAD} (the tiles themselves are at ${TILES_TEMPLATE_PATH}, outside this document's server; TileJSON at ${TILEJSON_PATH}).` },
      ...CATALOGUE_COLLECTIONS.map((c) => ({ name: c, description: `${COLLECTION_TITLES[c].title}: ${COLLECTION_TITLES[c].description}` })),
    ],
    paths,
    components: {
      schemas: ogcComponentSchemas(),
      parameters: ogcComponentParameters(),
      responses: ogcComponentResponses(options.rateLimited),
    },
  };
}

/** The document as served: its one server is the landing page's URL. */
export function withOgcServer(document: JsonObject, baseUrl: string): JsonObject {
  const { openapi, info, ...rest } = document;
  return { openapi, info, servers: [{ url: `${baseUrl}${OGC_PREFIX.slice(0, -1)}`, description: 'The landing page of this server.' }], ...rest };
}

const IGNORED_ITEMS_PARAMETERS = 'The items\' other parameters are taken here and ignored (each checked only by name): GDAL appends its dataset URL\'s query string (`OAPIF:…/ogc?datetime=…`) to every request it makes.';

/** The check of a path that reads only `f`, among the parameters it takes. */
const readFormatOnly = (accepted: readonly string[]) => (query: OgcQuery): void => {
  checkParameters(query, accepted);
  readFormat(query);
};

/**
 * A path that reads only `f`. `accepted`: what else it takes and ignores (the resources GDAL
 * reads before the items take the items' parameters: items-params.ts).
 */
function simplePath(options: OgcDocumentOptions, operationId: string, tag: string, summary: string, schema: string, types: readonly string[], readsStore = true, accepted = FORMAT_PARAMETERS): JsonObject {
  return {
    description: READ_ONLY,
    get: {
      operationId,
      tags: [tag],
      summary,
      ...(accepted === FORMAT_PARAMETERS ? {} : { description: IGNORED_ITEMS_PARAMETERS }),
      // `f=html` only where there is a page.
      parameters: types.includes(CONTENT_TYPE_PAGE) ? sharedParameters(FORMAT_PARAMETERS) : [parameterRef('fJson')],
      responses: {
        200: okResponse(summary, schema, types),
        304: { $ref: '#/components/responses/NotModified' },
        400: badRequestResponse(readFormatOnly(accepted), FORMAT_REFUSALS),
        ...commonErrors(options.rateLimited, readsStore),
      },
    },
  };
}

function tilePaths(options: OgcDocumentOptions): Record<string, JsonObject> {
  const json = [CONTENT_TYPE_JSON];
  return {
    [relative(OGC_PATHS.tilesets(TILED_COLLECTION))]: simplePath(options, 'getFeaturesTileSets', 'tiles', `The ${TILED_COLLECTION} collection's tilesets: one, its footprints in ${WEB_MERCATOR_QUAD}.`, 'TileSets', json),
    [relative(OGC_PATHS.tileset(TILED_COLLECTION, WEB_MERCATOR_QUAD))]: simplePath(options, 'getFeaturesTileSet', 'tiles', 'The tileset: its tile URL template (rel `item`), bounds, centre, layers and their fields.', 'TileSet', json),
    [relative(OGC_PATHS.tileMatrixSets)]: simplePath(options, 'getTileMatrixSets', 'tiles', 'The tile matrix sets of the tiles.', 'TileMatrixSets', json),
    [relative(OGC_PATHS.tileMatrixSet(WEB_MERCATOR_QUAD))]: simplePath(options, 'getWebMercatorQuad', 'tiles', `The definition of ${WEB_MERCATOR_QUAD} (OGC 17-083r4).`, 'TileMatrixSet', json),
  };
}

function collectionPaths(options: OgcDocumentOptions, c: CatalogueCollection): [string, JsonObject][] {
  const name = componentPrefix(c);
  const title = COLLECTION_TITLES[c].title;
  const itemsPath = relative(OGC_PATHS.items(c));
  return [
    [relative(OGC_PATHS.collection(c)), simplePath(options, `get${name}Collection`, c, `${title}: the collection, its extent and links.`, 'Collection', [CONTENT_TYPE_JSON, CONTENT_TYPE_PAGE], true, datasetQueryParameterNames(c))],
    [itemsPath, itemsPathItem(options, c)],
    [`${itemsPath}/{featureId}`, itemPathItem(options, c)],
    [relative(OGC_PATHS.queryables(c)), simplePath(options, `get${name}Queryables`, c, `${title}: what its items can be filtered by (JSON Schema).`, 'JsonSchema', [CONTENT_TYPE_SCHEMA, CONTENT_TYPE_JSON], true, datasetQueryParameterNames(c))],
    [relative(OGC_PATHS.schema(c)), simplePath(options, `get${name}Schema`, c, `${title}: the schema of its items' properties (JSON Schema).`, 'JsonSchema', [CONTENT_TYPE_SCHEMA, CONTENT_TYPE_JSON], true, datasetQueryParameterNames(c))],
    [relative(OGC_PATHS.featureSchema(c)), simplePath(options, `get${name}FeatureSchema`, c, `${title}: the schema of a whole item as GDAL reads it (\`describedBy\`: a GeoJSON Feature, nullable types in the OpenAPI 3.0 way).`, 'FeatureSchema', [CONTENT_TYPE_SCHEMA, CONTENT_TYPE_JSON], true, datasetQueryParameterNames(c))],
  ];
}

function itemsRefusals(c: CatalogueCollection): BadQuery[] {
  const integer = simpleQueryables(c).find((p) => p.type === 'integer')?.name;
  return [
    ...FORMAT_REFUSALS,
    { name: 'invalidLimit', query: '?limit=0', what: 'A limit below 1.' },
    { name: 'invalidBbox', query: '?bbox=0,0,1', what: 'A bbox of three numbers.' },
    { name: 'invalidFilter', query: '?filter=id%20%3D', what: 'A CQL2 filter that cannot be read: where it failed.' },
    { name: 'invalidFilterLang', query: '?filter=id%3D1&filter-lang=cql', what: 'A filter language other than cql2-text, cql2-json and cql-text (the draft name GDAL 3.6 sends).' },
    { name: 'invalidSortby', query: '?sortby=nothing', what: 'A sort key that is no sortable property.' },
    { name: 'invalidProperties', query: '?properties=nothing', what: 'A property the items do not have.' },
    { name: 'invalidCursor', query: '?after=x', what: 'An `after` that is no `next` link\'s.' },
    { name: 'nullCharacter', query: '?q=a%00', what: 'A value holding the NUL character, which no text can hold (any parameter of any path).' },
    { name: 'crsNotOffered', query: '?crs=EPSG:27700', what: 'A coordinate reference system that is not offered (not its URI).' },
    ...(integer === undefined ? [] : [{ name: 'invalidQueryable', query: `?${integer}=one`, what: `A \`${integer}\` that is not a whole number.` }]),
  ];
}

function itemsPathItem(options: OgcDocumentOptions, c: CatalogueCollection): JsonObject {
  const read = (query: OgcQuery) => {
    parseItemsQuery(c, query, options.cql2());
    readItemsFormat(query);
  };
  return {
    description: READ_ONLY,
    get: {
      operationId: `get${componentPrefix(c)}Items`,
      tags: [c],
      summary: `${COLLECTION_TITLES[c].title}: a page of items, filtered and sorted.`,
      description: 'Filters combine with AND: `bbox`, `datetime`, each `name=value` of a simple queryable, `filter` and `q`. The page has `numberMatched` (exact), `numberReturned`, and `next`/`prev` links keeping every parameter.',
      parameters: itemsParameters(c),
      responses: {
        200: withContentCrs(withDownloads(okResponse('A page of items as a GeoJSON FeatureCollection (`f=json`: the same as application/json; `f=html`: a page for people); with `f` a download format, the whole result as a file.', itemsSchemaName(c), [CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON, CONTENT_TYPE_PAGE]))),
        304: { $ref: '#/components/responses/NotModified' },
        400: badRequestResponse(read, itemsRefusals(c)),
        // A download's If-Match (pages have none: a page's If-Match is not read).
        412: errorRef(412),
        ...commonErrors(options.rateLimited, true),
      },
    },
  };
}

/** The download formats' media types beside a page's (their bodies are files: binary, or text for CSV). */
function withDownloads(response: JsonObject): JsonObject {
  const content = membersOf(response.content);
  for (const format of DOWNLOAD_FORMATS) {
    const { type, title } = DOWNLOAD_FORMAT_INFO[format];
    // f=geojson shares the page's media type (and schema: a FeatureCollection, without paging).
    if (content[type] !== undefined) continue;
    content[type] = { schema: format === 'csv' ? { type: 'string', description: title } : { type: 'string', format: 'binary', description: title } };
  }
  return { ...response, content };
}

function itemPathItem(options: OgcDocumentOptions, c: CatalogueCollection): JsonObject {
  const read = (query: OgcQuery) => {
    checkParameters(query, datasetQueryParameterNames(c));
    parseItemOptions(c, query);
    readFormat(query);
  };
  return {
    description: READ_ONLY,
    parameters: [parameterRef('featureId')],
    get: {
      operationId: `get${componentPrefix(c)}Item`,
      tags: [c],
      summary: `${COLLECTION_TITLES[c].title}: one item, with its links.`,
      description: IGNORED_ITEMS_PARAMETERS,
      parameters: itemParameters(c, ITEM_PARAMETERS),
      responses: {
        200: withContentCrs(okResponse('The item as a GeoJSON Feature (`f=json`: the same as application/json).', itemSchemaName(c), [CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON, CONTENT_TYPE_PAGE])),
        304: { $ref: '#/components/responses/NotModified' },
        400: badRequestResponse(read, [
          ...FORMAT_REFUSALS,
          { name: 'invalidProperties', query: '?properties=nothing', what: 'A property the item does not have.' },
          { name: 'invalidSkipGeometry', query: '?skipGeometry=yes', what: 'A skipGeometry other than true or false.' },
        ]),
        404: errorRef(404),
        ...commonErrors(options.rateLimited, true),
      },
    },
  };
}
