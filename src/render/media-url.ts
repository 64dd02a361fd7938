// Media-root paths → absolute URLs under {base_url}/media/, percent-encoded byte by byte
// (UTF-8) except A–Z a–z 0–9 - . _ ~ / ! * ( ) ' (catalogue-format.md). That is exactly
// encodeURIComponent's unreserved set plus `/`.
import { MEDIA_PREFIX } from '../constants.js';

export function encodeMediaPath(path: string): string {
  return encodeURIComponent(path).replaceAll('%2F', '/');
}

export function mediaUrl(baseUrl: string, path: string): string {
  return `${baseUrl}${MEDIA_PREFIX}${encodeMediaPath(path)}`;
}
