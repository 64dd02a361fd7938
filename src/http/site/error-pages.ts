// Errors as pages for browsers: a request whose Accept prefers HTML (a browser's does; GDAL's,
// QGIS's, curl's and fetch's do not) gets the error as a page of the site, with the same
// status and sentence, on every path but the data's own: /api/ (whose answers never change),
// the tiles, media files and the map's data, and an /ogc/ request with f other than html.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_PREFIX, TILES_ROOT } from '../../constants.js';
import { IIIF_PATHS } from '../../pages/paths.js';
import type { ApiError } from '../../errors.js';
import { htmlError } from '../../render/site/error.js';
import { isOgcPath } from '../protocol/faces.js';
import { CONTENT_TYPE_HTML, formatParameter, PAGE_HEADERS, prefersHtml } from '../../pages/headers.js';
import { pageAt } from '../../pages/request.js';

const DATA_PREFIXES = [TILES_ROOT, MEDIA_PREFIX, IIIF_PATHS.imagePrefix, '/map/', '/healthz', '/readyz', '/metrics'];

/** Anything under /api/, /api/v1/ or not, its reference page's path included: the original API's face refuses in JSON. */
const isUnderApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

export function wantsErrorPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  const url = request.url;
  if (typeof accept !== 'string' || !prefersHtml(accept) || isUnderApi(url)) return false;
  if (DATA_PREFIXES.some((p) => url.startsWith(p))) return false;
  if (isOgcPath(url)) {
    const f = formatParameter(url);
    return f === null || f === 'html';
  }
  return true;
}

export function sendErrorPage(reply: FastifyReply, error: ApiError): FastifyReply {
  const request = reply.request;
  const html = htmlError(pageAt(request), error, request.id);
  return reply.code(error.status).headers(PAGE_HEADERS).header('cache-control', 'no-store').type(CONTENT_TYPE_HTML).send(html);
}
