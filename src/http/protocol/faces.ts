// Which face of the catalogue a path belongs to: the original API (/api/) or OGC API –
// Features (/ogc/), or the files beside them (/tiles/, /media/, /iiif/). Error bodies, CORS and the
// fast path go by it (the rate limit has its own list: operations/rate-limit.ts).
import { API_PREFIX, MEDIA_PREFIX, OGC_PREFIX, TILES_ROOT } from '../../constants.js';
import { IIIF_PATHS } from '../../pages/paths.js';

/** `/prefix/…`, the prefix without its slash, or it with a query; the three forms made once (every request asks). */
function underPrefix(prefix: string): (url: string) => boolean {
  const bare = prefix.slice(0, -1);
  const query = `${bare}?`;
  return (url) => url.startsWith(prefix) || url === bare || url.startsWith(query);
}

export const isApiPath = underPrefix(API_PREFIX);

export const isOgcPath = underPrefix(OGC_PREFIX);

/** The two faces of the catalogue: the fast path covers both. */
export function isServicePath(url: string): boolean {
  return isApiPath(url) || isOgcPath(url);
}

const underTiles = underPrefix(TILES_ROOT);
const underMedia = underPrefix(MEDIA_PREFIX);
const underIiif = underPrefix(IIIF_PATHS.prefix);

/** Vector tiles, their TileJSON, media files and the IIIF face: shared with other sites' maps, pages and viewers (CORS). */
export function isSharedFilePath(url: string): boolean {
  return underTiles(url) || underMedia(url) || underIiif(url);
}
