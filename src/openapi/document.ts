// The OpenAPI 3.1 document of the service, built from the declarations the server runs on:
// the endpoint table (endpoints/endpoints.ts), the parameters' rules and the wire shapes
// (render/schemas.ts). Built once per server; only `servers` differs between requests.
import { API_PREFIX, COLLECTIONS } from '../constants.js';
import { ERRORS, errorBody } from '../errors.js';
import { API_ENDPOINTS, type ApiEndpoint } from '../endpoints/endpoints.js';
import { componentName, componentSchemas, knownComponent, type JsonObject } from './components.js';
import { componentParameters, detailParameters, formatParameters, listParameters, pathParameters } from './parameters.js';
import { componentResponses, errorRef, errorTable, notModifiedRef, okResponse, withoutBody, type ResponseStatus } from './responses.js';
import { OptionsSchema } from '../render/schemas.js';
import { tilePaths } from './tiles.js';
import { PACKAGE_VERSION } from '../package-files.js';

export interface DocumentOptions {
  /** RATE_LIMIT is on: /api/ answers may be 429 and carry RateLimit-* headers. */
  rateLimited: boolean;
}

/**
 * Paths described by one part of the service. The API's own come from the endpoint table;
 * another part (the vector tiles, say) adds a function here returning its path items.
 */
export type PathGroup = (options: DocumentOptions) => Record<string, JsonObject>;
const PATH_GROUPS: readonly PathGroup[] = [apiPaths, tilePaths];

/**
 * Every path answers other methods with 405, said once per path item rather than as POST, PUT,
 * PATCH and DELETE operations a client generator would turn into calls that cannot succeed.
 */
export const READ_ONLY_PATH =
  'Read-only: GET, HEAD and OPTIONS. Any other method is answered 405 (the `MethodNotAllowed` response of the components) before any body is read, unless refused earlier with an error every operation here documents (a Host not allowed, a URL too long, a client over the rate limit).';

const INFO = {
  title: 'heritage-api',
  version: PACKAGE_VERSION,
  summary: 'A read-only JSON/GeoJSON API over a catalogue of mapped historic buildings and places.',
  description: [
    'Features (buildings and places with a GeoJSON MultiPolygon footprint) and the images, documents and media attached to them, in the shape of the Survey of London\'s "Histories of Whitechapel" API.',
    'Every collection is paginated (20 a page, ascending id) and takes the finding-things parameters; filters combine with AND. `next` and `previous` are absolute URLs that keep every parameter.',
    'Answers on /api/ may be read by a web page on any origin (CORS; the server may restrict it with CORS_ORIGINS). HEAD answers the GET headers with no body; OPTIONS answers a JSON description, or a CORS preflight (with Origin and Access-Control-Request-Method) an empty 200.',
    `The API is read-only: a method other than GET, HEAD and OPTIONS is answered 405 \`${JSON.stringify(errorBody(ERRORS.methodNotAllowed('POST')))}\` (and so on), before any body is read.`,
    'Errors are JSON `{"detail": "…"}`. A human-readable version of this document is at /api/docs/.',
    `Every error the service answers with:\n\n${errorTable()}`,
  ].join('\n\n'),
  license: { name: 'MIT', identifier: 'MIT' },
};

export function buildOpenApiDocument(options: DocumentOptions): JsonObject {
  return {
    openapi: '3.1.0',
    info: INFO,
    tags: [
      { name: 'catalogue', description: 'The API root and this document.' },
      ...COLLECTIONS.map((name) => ({ name, description: `The ${name} collection: pages, the original's query path, one record.` })),
      { name: 'tiles', description: 'Mapbox Vector Tiles of the footprints, for maps (outside /api/: not rate limited).' },
    ],
    paths: Object.assign({}, ...PATH_GROUPS.map((group) => group(options))),
    components: {
      schemas: componentSchemas(),
      parameters: componentParameters(),
      responses: componentResponses(options.rateLimited),
    },
  };
}

/** The document as served: its one server is the base URL every link of the API starts with. */
export function withServer(document: JsonObject, baseUrl: string): JsonObject {
  const { openapi, info, ...rest } = document;
  return { openapi, info, servers: [{ url: baseUrl }], ...rest };
}

/** `/api/v1/features/:id/` → `/api/v1/features/{id}/` */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

function apiPaths(options: DocumentOptions): Record<string, JsonObject> {
  return Object.fromEntries(API_ENDPOINTS.map((endpoint) => [openApiPath(endpoint.url), pathItem(endpoint, options)]));
}

function pathItem(endpoint: ApiEndpoint, options: DocumentOptions): JsonObject {
  const responses = readResponses(endpoint, options);
  const get = readOperation('get', endpoint, responses);
  const head = readOperation('head', endpoint, mapValues(responses, withoutBody));
  const parameters = pathParameters(endpoint.kind);
  return { description: READ_ONLY_PATH, ...(parameters.length > 0 ? { parameters } : {}), get, head, options: optionsOperation(endpoint, options) };
}

/** GET, or HEAD with the same answers minus their bodies. */
function readOperation(method: 'get' | 'head', endpoint: ApiEndpoint, responses: Record<string, JsonObject>): JsonObject {
  return {
    operationId: operationId(method, endpoint),
    tags: [tagOf(endpoint)],
    summary: endpoint.description.name,
    description: endpoint.description.description,
    parameters: parametersOf(endpoint),
    responses,
  };
}

function readResponses(endpoint: ApiEndpoint, options: DocumentOptions): Record<string, JsonObject> {
  const cached = endpoint.kind !== 'root';
  const errors: ResponseStatus[] = endpoint.kind === 'openapi' ? [400] : endpoint.kind === 'root' ? [400, 404] : [400, 404, 503];
  return {
    200: okResponse(endpoint.description.name, knownComponent(endpoint.shape), cached, options.rateLimited, endpoint.kind === 'root' ? ['Link'] : []),
    ...(cached ? { 304: notModifiedRef() } : {}),
    ...errorResponses(errors, options),
  };
}

function optionsOperation(endpoint: ApiEndpoint, options: DocumentOptions): JsonObject {
  return {
    operationId: operationId('options', endpoint),
    tags: [tagOf(endpoint)],
    summary: `Describe: ${endpoint.description.name}`,
    description: 'A JSON description of the endpoint (name, description, renders, parses). A CORS preflight (Origin and Access-Control-Request-Method) gets instead an empty 200 with Access-Control-Allow-Methods `GET, HEAD, OPTIONS`, the requested headers allowed and Access-Control-Max-Age 86400.',
    responses: {
      200: okResponse('The description, or an empty preflight answer.', componentName(OptionsSchema), false, options.rateLimited),
      ...errorResponses([400], options),
    },
  };
}

/** These statuses, and those any request on /api/ may get: 414, and 429 when rate limited. */
function errorResponses(statuses: ResponseStatus[], options: DocumentOptions): Record<string, JsonObject> {
  const all: ResponseStatus[] = [...statuses, 414, ...(options.rateLimited ? [429 as const] : [])];
  return Object.fromEntries(all.sort((a, b) => a - b).map((status) => [status, errorRef(status)]));
}

function parametersOf(endpoint: ApiEndpoint): JsonObject[] {
  switch (endpoint.kind) {
    case 'list':
      return listParameters(endpoint.collection);
    case 'detail':
      return detailParameters();
    case 'root':
      return formatParameters();
    case 'openapi':
      return [];
  }
}

/** A collection's pages and records under its name; the root and this document under `catalogue`. */
const tagOf = (endpoint: ApiEndpoint) => (endpoint.kind === 'list' || endpoint.kind === 'detail' ? endpoint.collection : 'catalogue');

/** `get` + `/api/v1/query/features/` → `getQueryFeatures`; the root is `ApiRoot`. */
function operationId(method: string, endpoint: ApiEndpoint): string {
  const words = endpoint.url.slice(API_PREFIX.length).split(/[/.]/).filter((w) => w !== '');
  const name = words.length === 0 ? 'ApiRoot' : words.map((w) => (w === ':id' ? 'ById' : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return `${method}${name}`;
}

function mapValues(record: Record<string, JsonObject>, f: (value: JsonObject) => JsonObject): Record<string, JsonObject> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
}
