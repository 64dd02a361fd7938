// Every error the service answers with, in one table: its status, its `detail` sentence (the
// original's wording where the original had one, the framework's where it used to pass
// through) and when it happens, which the OpenAPI document says. Handlers throw these,
// raw-socket answers write them, the document describes them; nothing else makes one.
// Below http/ and openapi/, which both read it.
import { TILES_TEMPLATE_PATH } from './constants.js';
import { MAX_TILE_ZOOM } from './tiles/grid.js';
import { Cql2Error } from './ogc/cql2/errors.js';

/** The statuses the service refuses with, and their reason phrases (a raw-socket answer's status line). */
export const REASON_PHRASES = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const;
export type ErrorStatus = keyof typeof REASON_PHRASES;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** What the table says of an error, whatever its builder's arguments. */
export interface ErrorEntry {
  readonly status: ErrorStatus;
  /** When it happens, as the OpenAPI document says it. */
  readonly when: string;
  /** Its sentence, with example arguments where it takes some. */
  readonly example: string;
}

/** An entry of the table, called to make its error. */
export type ErrorKind<A extends unknown[]> = ((...args: A) => ApiError) & ErrorEntry;

function entry<A extends unknown[]>(status: ErrorStatus, when: string, detail: (...args: A) => string, ...example: A): ErrorKind<A> {
  return Object.assign((...args: A) => new ApiError(status, detail(...args)), { status, when, example: detail(...example) });
}

export const ERRORS = {
  badRequest: entry(400, 'Too malformed to route: bad HTTP syntax or a bad percent-encoding in the path (these without CORS headers); or a client error no other entry names.', () => 'Bad request.'),
  invalidHost: entry(400, 'The Host header (X-Forwarded-Host behind a trusted proxy) is missing, malformed or not in ALLOWED_HOSTS.', () => 'Invalid host header.'),
  moreThanOneHost: entry(400, 'More than one Host header line (RFC 9112 §3.2).', () => 'More than one Host header.'),
  invalidTarget: entry(400, 'The request target is neither a path (`/…`), nor an http(s) URL, nor `*` for OPTIONS.', () => 'Invalid request target: send a path such as /api/v1/.'),
  invalidFilter: entry(
    400,
    'A malformed filter value: `detail` names the parameter and what was expected.',
    (parameter: string, expected: string) => `Invalid ${parameter}: expected ${expected}.`,
    'author', 'an id (a whole number)',
  ),
  nullCharacter: entry(
    400,
    'A query parameter whose value holds the NUL character (`%00`), which no stored text can contain (PostgreSQL cannot store it; the original\'s forms refused it too): `detail` names the parameter. On /api/v1/ its finding-things parameters: `page`, `page_size`, `format` and the parameters a path ignores are answered as before.',
    (parameter: string) => `Invalid ${parameter}: null characters are not allowed.`,
    'street',
  ),
  mediaHasNoDate: entry(400, 'A `date_range` on media, which have no dates.', () => 'Invalid date_range: media records have no date to filter on.'),
  invalidTile: entry(
    400,
    'Not a tile of the grid (z, x, y not integers in range, or another extension).',
    () => `Invalid tile: z must be an integer from 0 to ${MAX_TILE_ZOOM}, x and y integers from 0 to 2^z - 1, as in ${TILES_TEMPLATE_PATH}.`,
  ),
  emptyJsonBody: entry(400, 'A body declared JSON (Content-Type) is empty.', () => "Body cannot be empty when content-type is set to 'application/json'"),
  invalidJsonBody: entry(400, 'A body declared JSON (Content-Type) is not JSON.', () => "Body is not valid JSON but content-type is set to 'application/json'"),
  bodyLengthMismatch: entry(400, 'A body shorter or longer than its Content-Length.', () => 'Request body size did not match Content-Length'),
  queryWithoutContentType: entry(400, 'A QUERY request without Content-Type on a path without a route.', () => "Method 'QUERY' must provide a 'Content-Type' header."),
  permissionDenied: entry(403, '`/metrics` asked from an address outside RATE_LIMIT_EXEMPT.', () => 'You do not have permission to perform this action.'),
  outsideFolder: entry(403, 'A map asset path that climbs out of its folder (`..`).', () => 'Forbidden'),
  notFound: entry(404, 'No such path, record (an id longer than 100 characters included) or media file (a dotfile or one outside the folder included), or a `format` other than json/api.', () => 'Not found.'),
  invalidPage: entry(404, 'A `page` that is not a whole number or `last`, or outside 1..last.', () => 'Invalid page.'),
  methodNotAllowed: entry(
    405,
    'The service is read-only: a method other than GET, HEAD and OPTIONS (on tiles, GET and HEAD), before any body is read; CONNECT too.',
    (method: string) => `Method "${method}" not allowed.`,
    'POST',
  ),
  requestTimeout: entry(408, 'The request line and headers (HEADERS_TIMEOUT_MS), or the whole request (REQUEST_TIMEOUT_MS), took too long to arrive; the connection closes.', () => 'Request timed out.'),
  preconditionFailed: entry(412, 'An If-Match or If-Unmodified-Since on a media file or map asset, or an If-Match on an OGC download (`f=geojson|csv|fgb|gpkg`), that does not hold.', () => 'Precondition Failed'),
  bodyTooLarge: entry(413, 'A request body over 1 MiB.', () => 'Request body is too large'),
  urlTooLong: entry(414, 'The request target (path and query) is longer than the server accepts (MAX_URL_BYTES), or the request line alone fills the header limit.', () => 'Request URL too long.'),
  unsupportedMediaType: entry(415, 'A request body of a type other than JSON or plain text, or with a malformed or no Content-Type.', () => 'Unsupported Media Type'),
  rangeNotSatisfiable: entry(416, 'A Range outside a media file or map asset.', () => 'Range Not Satisfiable'),
  expectationFailed: entry(417, 'An Expect header other than 100-continue.', () => 'Expectation failed: only "Expect: 100-continue" is understood.'),
  throttled: entry(
    429,
    'Over the rate limit of this client address (RATE_LIMIT): the wait in whole seconds, as in Retry-After.',
    // DRF's Throttled sentence.
    (seconds: number) => `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    60,
  ),
  headersTooLarge: entry(431, 'The request line and headers are over 16 KiB; the connection closes.', () => 'Request headers too large.'),
  serverError: entry(500, 'A fault of the server (logged with the request id).', () => 'A server error occurred.'),
  serviceUnavailable: entry(503, 'The database did not answer in time (DB_TIMEOUT_MS; a costly read\'s worker thread is ended after that much of its CPU time); answers already rendered are still served.', () => 'Service unavailable.'),
  busy: entry(
    503,
    'Too many costly requests of one class (WORK_* settings: reads beyond a small bound, geometry filters, large pages, downloads, GeoPackage builds) are running and waiting in this process: refused at once, before any work; Retry-After says when to ask again.',
    (what: string) => `Too many ${what} at once: try again in a moment.`,
    'downloads',
  ),
  mapPageNotBuilt: entry(503, 'The map page (`/`, `/map/`) before its bundle is built.', () => 'The map page is not built: run npm run build.'),
} satisfies Record<string, ErrorEntry>;

/** The entries in table order (those the /api/v1/ document describes). */
export const ERROR_ENTRIES: readonly ErrorEntry[] = Object.values(ERRORS);

/**
 * Errors only the OGC face (/ogc/) answers with, besides the shared ones above (404, 405,
 * 414, 429, 503…); there every error's body is the OGC exception (ogcErrorBody).
 */
export const OGC_ERRORS = {
  unknownParameter: entry(
    400,
    'On /ogc/: a query parameter the path does not take (OGC API – Features requires the refusal).',
    (name: string, known: string) => `Unknown parameter "${name}": this path takes ${known}.`,
    'limt', 'limit, bbox and f',
  ),
  repeatedParameter: entry(400, 'On /ogc/: a query parameter given twice with different values (the same value again is taken).', (name: string) => `The parameter "${name}" is given more than once, with different values.`, 'limit'),
  invalidParameter: entry(
    400,
    'On /ogc/: a parameter value that is not valid; `description` names the parameter and what was expected.',
    (name: string, expected: string) => `Invalid value of "${name}": expected ${expected}.`,
    'limit', 'a whole number from 1',
  ),
  invalidFilter: entry(
    400,
    'On /ogc/: a CQL2 filter that cannot be read, or names what is not a queryable: where it failed and what was expected.',
    (sentence: string) => `Invalid filter: ${sentence}`,
    'line 1, column 9 (offset 8): expected a comparison operator.',
  ),
} satisfies Record<string, ErrorEntry>;

/** Errors only the IIIF face (/iiif/) answers with, besides the shared ones (404, 503 busy…); its bodies are `{"detail"}`. */
export const IIIF_ERRORS = {
  invalidImageParameter: entry(
    400,
    'An Image API request whose region, size, rotation, quality or format this server cannot serve (a region outside the picture, a zero size, a size past the region without ^ or past maxWidth, maxHeight or maxArea, a rotation not by 90s, an unknown quality or format): `detail` names the parameter.',
    (parameter: string, problem: string) => `Invalid ${parameter}: ${problem}.`,
    'size', 'expected max, w, ,h, pct:n, w,h or !w,h, each after ^ to allow upscaling',
  ),
  noPictures: entry(404, 'A building\'s manifest when none of its published pictures has a file this server can read.', () => 'This building has no pictures to show.'),
  pictureUnreadable: entry(404, 'An image service of a picture whose file is missing (no MEDIA_ROOT, or not in it) or cannot be read as a picture.', () => 'This picture\'s file cannot be read: it is missing or damaged.'),
  pictureTooLarge: entry(404, 'An image service of a picture of more than 100 megapixels, which this server does not decode.', () => 'This picture is larger than this server serves (100 megapixels).'),
  renderTimedOut: entry(503, 'A render that took past its deadline (ended, with its process).', () => 'The picture took too long to make: try a smaller size.'),
} as const;

/** Errors only the visitors' site answers with (its pages; shown as a page to a browser, else as JSON). */
export const SITE_ERRORS = {
  invalidSearch: entry(
    400,
    'On /search/: a value that is not valid; the sentence names the field and what was expected.',
    (field: string, expected: string) => `The ${field} of the search must be ${expected}.`,
    'year from', 'a year such as 1850',
  ),
  noSuchResultsPage: entry(404, 'On /search/: a page past the last page of results.', (last: number) => `There is no such page of results: the last is page ${last}.`, 3),
} satisfies Record<string, ErrorEntry>;

/** The contributors' pages (CONTRIBUTIONS on): what a form is refused for, besides its own fields' sentences. */
export const CONTRIBUTE_ERRORS = {
  badForm: entry(403, 'A POST whose csrf field is missing or is not the one this browser\'s form was given (another site\'s form, another session\'s, an expired one).', () => 'This form did not come from this site, or has expired: go back, reload it and send it again.'),
  signInThrottled: entry(
    429,
    'Too many failed sign-ins for the account name or from the client address in the last 15 minutes (a browser that signed in to the account before counts its own failures instead): the wait in whole seconds, as in Retry-After.',
    (seconds: number) => `Too many failed sign-ins: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    600,
  ),
  signUpThrottled: entry(
    429,
    'Too many new accounts from the client address in the last hour (5), or from everyone in the last minute (30): the wait in whole seconds, as in Retry-After.',
    (seconds: number) => `Too many new accounts have been asked for from here or from everyone just now: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    60,
  ),
  formTooLarge: entry(413, 'A form past its bound: 8 KiB for the account forms, 192 KiB for the contribution and review forms (pictures have their own bound).', () => 'The form is too large.'),
  pictureTooLarge: entry(413, 'A picture of more than 20 MB.', () => 'A picture is at most 20 MB.'),
  uploadStalled: entry(408, 'A picture whose bytes paused for longer than the upload\'s idle bound, once its upload slot was taken.', (seconds: number) => `The picture stopped arriving for ${seconds} seconds: send it again.`, 10),
  notMultipart: entry(415, 'A picture\'s form sent as anything but multipart/form-data.', () => 'Send the picture\'s form as multipart/form-data.'),
  badUpload: entry(400, 'A picture\'s form that cannot be read as multipart/form-data (broken, or past its bounds: one file, ten fields of 8 KiB).', () => 'The form cannot be read: send it again from the page.'),
  editorsOnly: entry(403, 'The editors\' pages (/edit/, /moderate/, /history/) asked by an account that is not an editor\'s.', () => 'Only editors may review contributions and changes.'),
  noSuchForm: entry(404, 'A contribution form of a kind there is none of (document and media).', () => 'There is no such form.'),
  noSuchBuilding: entry(404, 'A contribution form of a building that does not exist, or is not published.', () => 'There is no such building.'),
  noSuchContribution: entry(404, 'A review of a contribution that does not exist.', () => 'There is no such contribution.'),
  alreadyDecided: entry(409, 'An approval, correction or rejection of a contribution already published or rejected (by another editor meanwhile).', () => 'This contribution has been decided already: reload the queue.'),
  noSuchEditPage: entry(404, 'A path under /edit/ that is no editor\'s page (asked by an editor: anyone else is refused first).', () => 'There is no such page for editors.'),
  noSuchRecord: entry(404, 'The history of a collection there is none of, or a change that is not of this record.', () => 'There is no such record or change.'),
  cannotUndo: entry(409, 'An undo that cannot be made: the record changed since, or the catalogue would break (a reference).', (why: string) => `This change cannot be undone: ${why}.`, 'the record has changed since'),
  noSuchResetLink: entry(404, 'A password reset link that is not one, or was used, has expired (after an hour) or was replaced by a newer one.', () => 'This link cannot be used: it has been used already, has expired (a link lasts an hour) or was replaced by a newer one. Ask an editor for a new one.'),
  mayNotIssueReset: entry(403, 'The page that issues password reset links (/moderate/accounts/reset) asked by an account that is not an editor\'s or an admin\'s.', () => 'Only editors and admins may issue password reset links.'),
  offReplica: entry(503, 'A contribution or an account page asked of a read-only replica without PRIMARY_URL to send it to.', () => 'This server is a read-only copy: accounts and contributions are not served here.'),
} satisfies Record<string, ErrorEntry>;

/** An error as the body of its answer. */
export function errorBody(error: ApiError): { detail: string } {
  return { detail: error.detail };
}

/**
 * An error thrown below the HTTP layer as the answer it means, or null: our own, or a CQL2
 * filter that cannot be read or written as SQL against the queryables (a page or a download
 * alike), always the client's 400. The app's error handler and the OGC document's examples use it.
 */
export function answerOf(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof Cql2Error) return OGC_ERRORS.invalidFilter(error.message);
  return null;
}

/** OGC API exception codes (the OGC exception schema's `code`), by status. */
const OGC_CODES: Readonly<Partial<Record<ErrorStatus, string>>> = {
  400: 'InvalidParameterValue',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  414: 'URITooLong',
  429: 'TooManyRequests',
  500: 'ServerError',
  503: 'ServiceUnavailable',
};

/** The same error on /ogc/: the OGC exception body. */
export function ogcErrorBody(error: ApiError): { code: string; description: string } {
  return { code: OGC_CODES[error.status] ?? REASON_PHRASES[error.status].replaceAll(' ', ''), description: error.detail };
}
