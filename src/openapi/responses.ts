// The answers of an operation as OpenAPI response objects: the 200 of each endpoint, the 304
// of cached answers, and the closed set of errors of http/errors.ts, each with the Error
// shape and the headers it carries.
import { CONTENT_TYPE_JSON, CONTENT_TYPE_OPENAPI, DOCS_PREFIX, OPENAPI_PATH } from '../constants.js';
import { ErrorSchema } from '../render/schemas.js';
import { componentName, schemaRef, type JsonObject } from './components.js';

export type ErrorStatus = 400 | 404 | 405 | 414 | 429 | 503;

const header = (description: string, schema: JsonObject = { type: 'string' }) => ({ description, schema });

function headerDefinitions(rateLimited: boolean): Record<string, JsonObject> {
  const headers: Record<string, JsonObject> = {
    ETag: header('Strong: the catalogue version and a hash of the body; send it back in If-None-Match for a 304.'),
    'Cache-Control': header('`public, max-age=60` unless the server is set otherwise (CACHE_CONTROL).'),
    Vary: header('`Accept`; with compression `Accept, Accept-Encoding`; with CORS_ORIGINS as a list and an Origin header, `Origin` too.'),
    Allow: header('`GET, HEAD, OPTIONS`.'),
    'Retry-After': header('Seconds to wait before asking again.', { type: 'integer', minimum: 1 }),
    Link: header(
      `Where this API is described (RFC 8288 links, RFC 8631 relations), absolute like every link of the body: \`<{base}${OPENAPI_PATH}>; rel="service-desc"; type="${CONTENT_TYPE_OPENAPI}", <{base}${DOCS_PREFIX}>; rel="service-doc"; type="text/html"\`.`,
    ),
  };
  if (!rateLimited) return headers;
  return {
    ...headers,
    'RateLimit-Limit': header('Requests allowed per window (IETF draft RateLimit fields); absent for exempt addresses.', { type: 'integer', minimum: 1 }),
    'RateLimit-Remaining': header('Requests left in this window.', { type: 'integer', minimum: 0 }),
    'RateLimit-Reset': header('Seconds until the window starts again.', { type: 'integer', minimum: 0 }),
    'RateLimit-Policy': header('The limit and its window in seconds, e.g. `1000;w=86400`.'),
  };
}

/** Header objects by name, inline (a $ref could not say `required`). */
function headers(rateLimited: boolean, required: readonly string[], optional: readonly string[]): JsonObject {
  const all = headerDefinitions(rateLimited);
  const pick = (names: readonly string[], isRequired: boolean) =>
    names.filter((n) => all[n] !== undefined).map((n) => [n, { ...all[n], required: isRequired }]);
  return Object.fromEntries([...pick(required, true), ...pick(optional, false)]);
}

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

const ERRORS: Record<ErrorStatus, [name: string, description: string]> = {
  400: ['BadRequest', 'A malformed filter value (`detail` names the parameter and what was expected), a Host header not allowed ("Invalid host header.") or a request too malformed to route ("Bad request.": bad percent-encoding, an id longer than 100 characters; these carry no Vary, Allow or CORS headers).'],
  404: ['NotFound', 'No such path or record ("Not found."), a page outside 1..last ("Invalid page."), or a `format` other than json/api.'],
  405: ['MethodNotAllowed', 'The API is read-only: `Method "POST" not allowed.` (and so on), before any body is read.'],
  414: ['UriTooLong', 'The request target (path and query) is longer than the server accepts (MAX_URL_BYTES): "Request URL too long.".'],
  429: ['TooManyRequests', 'Over the rate limit of this client address (RATE_LIMIT): "Request was throttled. Expected available in N seconds.".'],
  503: ['ServiceUnavailable', 'The database did not answer in time ("Service unavailable."); answers already rendered are still served.'],
};

function errorResponse(status: ErrorStatus, rateLimited: boolean): JsonObject {
  const retry = status === 429 || status === 503;
  // A request too malformed to route (bad percent-encoding, an over-long id) is refused
  // before the hooks that add Vary and Allow.
  const apiHeaders = ['Vary', 'Allow'];
  return {
    description: ERRORS[status][1],
    headers: headers(rateLimited, [...(status === 400 ? [] : apiHeaders), ...(retry ? ['Retry-After'] : [])], [...(status === 400 ? apiHeaders : []), ...RATE_LIMIT_HEADERS]),
    content: { [CONTENT_TYPE_JSON]: { schema: schemaRef(componentName(ErrorSchema)) } },
  };
}

export function componentResponses(rateLimited: boolean): Record<string, JsonObject> {
  const statuses = Object.keys(ERRORS).map(Number) as ErrorStatus[];
  const responses = Object.fromEntries(
    statuses.filter((s) => rateLimited || s !== 429).map((s) => [ERRORS[s][0], errorResponse(s, rateLimited)]),
  );
  return {
    ...responses,
    NotModified: { description: 'The ETag in If-None-Match is still current: no body.', headers: headers(rateLimited, ['ETag'], RATE_LIMIT_HEADERS) },
  };
}

export const errorRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/${ERRORS[status][0]}` });
export const notModifiedRef = () => ({ $ref: '#/components/responses/NotModified' });

/** A 200 with a JSON body of this component, the headers of a cached answer when it has them, and any others it always has. */
export function okResponse(description: string, schemaName: string, cached: boolean, rateLimited: boolean, alsoRequired: readonly string[] = []): JsonObject {
  const caching = cached ? ['ETag', 'Cache-Control'] : [];
  return {
    description,
    headers: headers(rateLimited, [...caching, 'Vary', 'Allow', ...alsoRequired], RATE_LIMIT_HEADERS),
    content: { [CONTENT_TYPE_JSON]: { schema: schemaRef(schemaName) } },
  };
}

/** HEAD: the GET answer's status, headers and content type, never a body. */
export function withoutBody(response: JsonObject): JsonObject {
  if (typeof response.$ref === 'string') return response;
  return { ...response, description: `${String(response.description)} (HEAD: the same headers, no body.)` };
}
