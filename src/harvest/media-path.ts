// Absolute media URLs back to media-root paths: strip `{base}/media/`, percent-decode
// (the inverse of src/render/media-url.ts), and the URL to fetch a file from.
import { API_PREFIX, MEDIA_PREFIX } from '../constants.js';
import { HarvestError } from './errors.js';

export interface MediaBases {
  /** `{base}/media/` as the server writes it in its answers. */
  served: string;
  /** `{base}/media/` at the address the harvest reaches the server by. */
  reachable: string;
}

/**
 * The server's own base comes from its root links (`{base}/api/v1/features/`): behind a
 * proxy or with BASE_URL it may differ from the address we were given.
 */
export function mediaBases(rootUrl: string, featuresLink: string): MediaBases {
  const suffix = `${API_PREFIX}features/`;
  const reachable = rootUrl.endsWith(API_PREFIX) ? rootUrl.slice(0, -API_PREFIX.length) : new URL(rootUrl).origin;
  const served = featuresLink.endsWith(suffix) ? featuresLink.slice(0, -suffix.length) : reachable;
  return { served: `${served}${MEDIA_PREFIX}`, reachable: `${reachable}${MEDIA_PREFIX}` };
}

/**
 * A media-root path from its URL. URLs outside `{base}/media/` (files on another host,
 * as a storage service would serve them) keep the part of their path after `/media/`,
 * or their whole path.
 */
export function mediaPathOf(url: string, bases: MediaBases): string {
  const encoded = url.startsWith(bases.served) ? url.slice(bases.served.length) : pathOutsideBase(url);
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new HarvestError(`cannot decode the media URL ${url}: bad percent-encoding.`);
  }
}

function pathOutsideBase(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    throw new HarvestError(`the media URL ${url} is not an absolute URL.`);
  }
  const at = pathname.indexOf(MEDIA_PREFIX);
  return at >= 0 ? pathname.slice(at + MEDIA_PREFIX.length) : pathname.replace(/^\/+/, '');
}

/** Where to download a served URL from: the reachable address when it is the server's own. */
export function downloadUrl(url: string, bases: MediaBases): string {
  return url.startsWith(bases.served) ? bases.reachable + url.slice(bases.served.length) : url;
}
