// The answers of /ogc/ operations: the 200 of each resource in its media types, the 304 of
// a cached answer, and the errors the face answers with, each described by its table entry's
// `when` (errors.ts) with the OGC exception body. A 400's examples are made by reading
// example queries with the route's own parsers, so each example is a refusal the server
// really gives (and a query that is not refused stops the build).
import { CONTENT_TYPE_JSON } from '../../constants.js';
import { ApiError, ERRORS, OGC_ERRORS, answerOf, ogcErrorBody, REASON_PHRASES, type ErrorEntry, type ErrorStatus } from '../../errors.js';
import { readOgcQuery, type OgcQuery } from '../../http/ogc/query.js';
import { membersOf, schemaRef, type JsonObject } from '../components.js';

/** The shared entries the face answers with, by status (the 400s are OGC_ERRORS', a NUL and a bad Host). */
const ENTRIES: Readonly<Record<OgcErrorStatus, readonly ErrorEntry[]>> = {
  400: [...Object.values(OGC_ERRORS), ERRORS.nullCharacter, ERRORS.invalidHost],
  404: [ERRORS.notFound],
  405: [ERRORS.methodNotAllowed],
  412: [ERRORS.preconditionFailed],
  414: [ERRORS.urlTooLong],
  429: [ERRORS.throttled],
  503: [ERRORS.serviceUnavailable, ERRORS.busy],
};
type OgcErrorStatus = 400 | 404 | 405 | 412 | 414 | 429 | 503;

const header = (description: string, schema: JsonObject = { type: 'string' }) => ({ description, schema });
const CACHE_HEADERS = {
  ETag: header('Strong: the catalogue version and a hash of the body; send it back in If-None-Match for a 304.'),
  'Cache-Control': header('`public, max-age=60` unless the server is set otherwise (CACHE_CONTROL).'),
};
const RETRY_AFTER = { 'Retry-After': header('Seconds to wait before asking again.', { type: 'integer', minimum: 1 }) };

/** `URI Too Long` → `UriTooLong`, as the /api/v1/ document names them. */
const responseName = (status: ErrorStatus) =>
  REASON_PHRASES[status].split(' ').map((word) => word.charAt(0) + word.slice(1).toLowerCase()).join('');

const whenText = (entries: readonly ErrorEntry[]) => entries.map((e) => `- ${e.when}`).join('\n');
const exampleBody = (entry: ErrorEntry) => ogcErrorBody(new ApiError(entry.status, entry.example));

function errorResponse(status: OgcErrorStatus): JsonObject {
  const [first] = ENTRIES[status];
  return {
    description: whenText(ENTRIES[status]),
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    content: { [CONTENT_TYPE_JSON]: { schema: schemaRef('Exception'), ...(first === undefined ? {} : { example: exampleBody(first) }) } },
  };
}

export function ogcComponentResponses(rateLimited: boolean): Record<string, JsonObject> {
  const statuses: OgcErrorStatus[] = [404, 405, 412, 414, ...(rateLimited ? [429 as const] : []), 503];
  return {
    ...Object.fromEntries(statuses.map((s) => [responseName(s), errorResponse(s)])),
    NotModified: { description: 'The ETag in If-None-Match is still current: no body.', headers: { ETag: CACHE_HEADERS.ETag } },
  };
}

export const errorRef = (status: Exclude<OgcErrorStatus, 400>) => ({ $ref: `#/components/responses/${responseName(status)}` });
export const METHOD_NOT_ALLOWED = responseName(405);

/** A 200 in these media types (the first when `f` is absent), all with this schema. */
/** The pages for people (issue 19): `f=html`, or an Accept preferring text/html to JSON. */
export const CONTENT_TYPE_PAGE = 'text/html';
const PAGE_CONTENT = { schema: { type: 'string', description: 'The same resource as a web page (`f=html`, or an `Accept` that prefers text/html to JSON).' } };

export function okResponse(description: string, schemaName: string, mediaTypes: readonly string[]): JsonObject {
  return {
    description,
    headers: CACHE_HEADERS,
    content: Object.fromEntries(mediaTypes.map((type) => [type, type === CONTENT_TYPE_PAGE ? PAGE_CONTENT : { schema: schemaRef(schemaName) }])),
  };
}

/** A 200 with coordinates: its `Content-Crs` header (OGC API – Features Part 2). */
export function withContentCrs(response: JsonObject): JsonObject {
  const crs = header('The coordinate reference system of the geometries, as `<URI>`: the `crs` parameter\'s, CRS84 when absent.');
  return { ...response, headers: { ...membersOf(response.headers), 'Content-Crs': crs } };
}

/** An example refusal: the query (`?limt=10`) and what it says. */
export interface BadQuery {
  readonly name: string;
  readonly query: string;
  readonly what: string;
}

/**
 * The 400 of an operation, with an example per bad query: `read` is what the route does
 * with the query, and must refuse each one (its `summary` is the query, for people and tests).
 */
export function badRequestResponse(read: (query: OgcQuery) => void, examples: readonly BadQuery[]): JsonObject {
  const bodies = examples.map((example) => [example.name, { summary: example.query, description: example.what, value: refusal(read, example.query) }]);
  return {
    description: whenText(ENTRIES[400]),
    content: { [CONTENT_TYPE_JSON]: { schema: schemaRef('Exception'), examples: Object.fromEntries(bodies) } },
  };
}

function refusal(read: (query: OgcQuery) => void, search: string): JsonObject {
  try {
    read(readOgcQuery(search));
  } catch (error) {
    const answer = answerOf(error);
    if (answer !== null && answer.status === 400) return ogcErrorBody(answer);
    throw error;
  }
  throw new Error(`the example query ${search} is not refused`);
}

/** The errors every /ogc/ operation may answer besides its own: 414, 429 when rate limited, and 503 when it reads the store. */
export function commonErrors(rateLimited: boolean, readsStore: boolean): Record<string, JsonObject> {
  return {
    414: errorRef(414),
    ...(rateLimited ? { 429: errorRef(429) } : {}),
    ...(readsStore ? { 503: errorRef(503) } : {}),
  };
}
