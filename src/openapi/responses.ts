// The answers of an operation as OpenAPI response objects: the 200 of each endpoint, the 304
// of cached answers, and the errors of the table (errors.ts), a response per status with the
// Error shape and the headers it carries.
import { CONTENT_TYPE_JSON, CONTENT_TYPE_OPENAPI, DOCS_PREFIX, OPENAPI_PATH } from '../constants.js';
import { ERROR_ENTRIES, REASON_PHRASES, type ErrorStatus } from '../errors.js';
import { ErrorSchema } from '../render/schemas.js';
import { componentName, schemaRef, type JsonObject } from './components.js';

/** The error statuses an operation of the document may answer: each a response of the components. */
const RESPONSE_STATUSES = [400, 404, 405, 414, 429, 503] as const satisfies readonly ErrorStatus[];
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

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

/** The component's name: `URI Too Long` → `UriTooLong`. */
const responseName = (status: ErrorStatus) =>
  REASON_PHRASES[status].split(' ').map((word) => word.charAt(0) + word.slice(1).toLowerCase()).join('');

/** Each error of the table with this status: its sentence and when it happens. */
function statusDescription(status: ErrorStatus): string {
  return ERROR_ENTRIES.filter((e) => e.status === status).map((e) => `- \`${e.example}\`: ${e.when}`).join('\n');
}

/** Every error of the table, as a Markdown table for the document's introduction. */
export function errorTable(): string {
  const rows = ERROR_ENTRIES.map((e) => `| ${e.status} | \`${e.example}\` | ${e.when} |`);
  return ['| Status | `detail` | When |', '|---|---|---|', ...rows].join('\n');
}

function errorResponse(status: ResponseStatus, rateLimited: boolean): JsonObject {
  const retry = status === 429 || status === 503;
  // A request too malformed to route (bad percent-encoding, an over-long id) is refused
  // before the hooks that add Vary and Allow.
  const apiHeaders = ['Vary', 'Allow'];
  return {
    description: statusDescription(status),
    headers: headers(rateLimited, [...(status === 400 ? [] : apiHeaders), ...(retry ? ['Retry-After'] : [])], [...(status === 400 ? apiHeaders : []), ...RATE_LIMIT_HEADERS]),
    content: { [CONTENT_TYPE_JSON]: { schema: schemaRef(componentName(ErrorSchema)) } },
  };
}

export function componentResponses(rateLimited: boolean): Record<string, JsonObject> {
  const responses = Object.fromEntries(
    RESPONSE_STATUSES.filter((s) => rateLimited || s !== 429).map((s) => [responseName(s), errorResponse(s, rateLimited)]),
  );
  return {
    ...responses,
    NotModified: { description: 'The ETag in If-None-Match is still current: no body.', headers: headers(rateLimited, ['ETag'], RATE_LIMIT_HEADERS) },
  };
}

export const errorRef = (status: ResponseStatus) => ({ $ref: `#/components/responses/${responseName(status)}` });
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
