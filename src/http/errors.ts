// The closed set of errors the API answers with, each a status and a `detail` sentence
// (the original's wording).
import { TILES_TEMPLATE_PATH } from '../constants.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const notFound = () => new ApiError(404, 'Not found.');
export const invalidPage = () => new ApiError(404, 'Invalid page.');
export const methodNotAllowed = (method: string) => new ApiError(405, `Method "${method}" not allowed.`);
export const invalidHost = () => new ApiError(400, 'Invalid host header.');
export const badRequest = () => new ApiError(400, 'Bad request.');
/** RFC 9112 §3.2: a request with more than one Host header line is a 400. */
export const moreThanOneHost = () => new ApiError(400, 'More than one Host header.');
/** Neither a path (`/…`) nor an http(s) URL, nor `*` for OPTIONS. */
export const invalidTarget = () => new ApiError(400, 'Invalid request target: send a path such as /api/v1/.');
export const expectationFailed = () => new ApiError(417, 'Expectation failed: only "Expect: 100-continue" is understood.');
export const serverError = () => new ApiError(500, 'A server error occurred.');
export const serviceUnavailable = () => new ApiError(503, 'Service unavailable.');
export const invalidTile = (maxZoom: number) =>
  new ApiError(400, `Invalid tile: z must be an integer from 0 to ${maxZoom}, x and y integers from 0 to 2^z - 1, as in ${TILES_TEMPLATE_PATH}.`);
/** DRF's Throttled: the wait in whole seconds, rounded up. */
export const throttled = (seconds: number) =>
  new ApiError(429, `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`);
export const permissionDenied = () => new ApiError(403, 'You do not have permission to perform this action.');

export function errorBody(error: ApiError): { detail: string } {
  return { detail: error.detail };
}
