// Which face of the catalogue a path belongs to: the original API (/api/) or OGC API –
// Features (/ogc/), or the files beside them (/tiles/, /media/). Error bodies, CORS and the
// fast path go by it (the rate limit has its own list: operations/rate-limit.ts).
import { API_PREFIX, MEDIA_PREFIX, OGC_PREFIX, TILES_ROOT } from '../../constants.js';

/** `/prefix/…`, the prefix without its slash, or it with a query. */
function under(prefix: string, url: string): boolean {
  const bare = prefix.slice(0, -1);
  return url === bare || url.startsWith(prefix) || url.startsWith(`${bare}?`);
}

export function isApiPath(url: string): boolean {
  return under(API_PREFIX, url);
}

export function isOgcPath(url: string): boolean {
  return under(OGC_PREFIX, url);
}

/** The two faces of the catalogue: the fast path covers both. */
export function isServicePath(url: string): boolean {
  return isApiPath(url) || isOgcPath(url);
}


/** Vector tiles, their TileJSON, and media files: shared with other sites' maps and pages (CORS). */
export function isSharedFilePath(url: string): boolean {
  return under(TILES_ROOT, url) || under(MEDIA_PREFIX, url);
}
