// The closed set of errors the API answers with, each a status and a `detail` sentence
// (the original's wording).

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
export const serverError = () => new ApiError(500, 'A server error occurred.');
export const serviceUnavailable = () => new ApiError(503, 'Service unavailable.');
export const invalidTile = (maxZoom: number) =>
  new ApiError(400, `Invalid tile: z must be an integer from 0 to ${maxZoom}, x and y integers from 0 to 2^z - 1, as in /tiles/features/{z}/{x}/{y}.mvt.`);
/** DRF's Throttled: the wait in whole seconds, rounded up. */
export const throttled = (seconds: number) =>
  new ApiError(429, `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`);
export const permissionDenied = () => new ApiError(403, 'You do not have permission to perform this action.');

export function errorBody(error: ApiError): { detail: string } {
  return { detail: error.detail };
}
