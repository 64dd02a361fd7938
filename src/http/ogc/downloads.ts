// The whole result of an items query as a file (`f=geojson|csv|fgb|gpkg`): every parameter
// but the page's applies (limit, after and before are refused: a download has no pages).
// Made in a worker thread from one catalogue version, in a turn of its class (src/work/:
// streamed a chunk at a time; a GeoPackage written whole, shared by identical requests
// meanwhile: shared-geopackages.ts), never through the answer cache (too large); its ETag is the catalogue version's and the URL's, so a
// repeat with If-None-Match is a 304 before anything is read, and an If-Match that does
// not hold a 412. A collection's whole GeoPackage is sent from the file kept for its version
// (kept-geopackages.ts). HEAD sends GET's headers: the kept file's Content-Length, none for a
// streamed answer (GET's is chunked), and reads nothing else.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, OGC_ERRORS } from '../../errors.js';
import type { Cql2Reader } from '../../ogc/cql2/filter.js';
import { DOWNLOAD_FORMAT_INFO, downloadFileName, type DownloadFormat } from '../../ogc/downloads.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { matchesEtag } from '../cache/answers.js';
import { parseItemsQuery } from './items-params.js';
import type { SharedGeoPackages } from './shared-geopackages.js';
import type { OgcQuery } from './query.js';
import type { OgcRouteDeps } from './routes.js';

/** Parameters that choose a page: no meaning for a whole result. */
const PAGE_PARAMETERS = ['limit', 'after', 'before'] as const;

export function downloadEtag(version: number, baseUrl: string, url: string): string {
  const hash = createHash('sha1').update(`${baseUrl}\n${url}`).digest('base64url').slice(0, 16);
  return `"d${version}-${hash}"`;
}

/** If-Match uses the strong comparison (RFC 9110 §13.1.1): a weak tag never matches; * matches a current file. */
function matchesStrongly(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag;
  });
}

type Held = 'failed' | 'unchanged' | null;

/**
 * RFC 9110 §13.2.2's order for GET and HEAD: an If-Match that does not hold fails (a 412),
 * then an If-None-Match that does leaves the file unchanged (a 304); null: send it.
 */
function preconditions(request: FastifyRequest, etag: string): Held {
  const ifMatch = request.headers['if-match'];
  if (ifMatch !== undefined && !matchesStrongly(ifMatch, etag)) return 'failed';
  return matchesEtag(request.headers['if-none-match'], etag) ? 'unchanged' : null;
}

/** A 412 is the error body alone (no file's headers); a 304 has the file's. */
function sendHeld(held: Exclude<Held, null>, head: () => FastifyReply): FastifyReply {
  if (held === 'failed') throw ERRORS.preconditionFailed();
  return head().code(304).send();
}

/**
 * HEAD's answer without a body. Fastify's HEAD route sets Content-Length: 0 for no payload;
 * for a stream it leaves the header as set (none, or the kept file's size) and discards it.
 */
const NO_BODY = () => Readable.from([]);

export async function sendDownload(
  request: FastifyRequest, reply: FastifyReply, deps: OgcRouteDeps, collection: CatalogueCollection, format: DownloadFormat, query: OgcQuery, cql2: () => Cql2Reader,
  shared: SharedGeoPackages,
): Promise<FastifyReply> {
  for (const name of PAGE_PARAMETERS) {
    if (query.get(name) !== undefined) throw OGC_ERRORS.invalidParameter(name, `no value with f=${format}: a download is the whole result (use f=json for pages)`);
  }
  const { request: items, options } = parseItemsQuery(collection, query, cql2());
  if (options.skipGeometry && (format === 'fgb' || format === 'gpkg')) {
    throw OGC_ERRORS.invalidParameter('skipGeometry', `false with f=${format} (a map layer has geometries; f=csv or f=geojson can leave them out)`);
  }
  const { filter, words, sortBy } = items;
  const info = DOWNLOAD_FORMAT_INFO[format];
  const head = (etag: string) => reply
    .header('etag', etag)
    .header('cache-control', deps.config.cacheControl)
    .header('content-type', info.type)
    .header('content-disposition', `attachment; filename="${downloadFileName(collection, format)}"`);
  const polled = await deps.store.catalogueVersion();
  const polledEtag = downloadEtag(polled, request.baseUrl, request.url);
  const polledHeld = preconditions(request, polledEtag);
  if (polledHeld !== null) return sendHeld(polledHeld, () => head(polledEtag));
  const headOnly = request.method === 'HEAD';
  // `f=gpkg` alone (the enclosure link): the whole collection's file, kept per version.
  const kept = format === 'gpkg' && query.names.length === 1 ? await deps.geoPackages?.open(collection, request.baseUrl, polled) : null;
  if (kept != null) {
    const etag = downloadEtag(kept.version, request.baseUrl, request.url);
    const held = preconditions(request, etag);
    if (held !== null || headOnly) kept.body.destroy();
    if (held !== null) return sendHeld(held, () => head(etag));
    return head(etag).header('content-length', kept.size).code(200).send(headOnly ? NO_BODY() : kept.body);
  }
  if (headOnly) return head(polledEtag).code(200).send(NO_BODY());
  const itemsQuery = { filter, words, sortBy };
  // Made in a worker thread: a GeoPackage whole into a file (shared by identical requests meanwhile), the rest streamed.
  const made = format === 'gpkg'
    ? await shared.open(`${polled}\n${request.baseUrl}\n${request.url}`, (file) => deps.work.buildGeoPackage({ kind: 'geopackage', collection, query: itemsQuery, options, baseUrl: request.baseUrl, file }))
    : await deps.work.download({ kind: 'download', collection, query: itemsQuery, format, options, baseUrl: request.baseUrl });
  // The snapshot's own version: an import may have landed since the poll.
  const etag = downloadEtag(made.version, request.baseUrl, request.url);
  const held = preconditions(request, etag);
  if (held !== null) {
    made.body.destroy();
    return sendHeld(held, () => head(etag));
  }
  // A GeoPackage built for its request goes without its length, as its HEAD does (which builds nothing).
  return head(etag).code(200).send(made.body);
}
