// The /ogc/ pages for people: which answer a request gets (f=html, or a browser's Accept
// preferring text/html over JSON when no f is given: pages/headers.ts), and its key in the
// answer cache.
import { formatParameter } from '../../pages/headers.js';
import type { HeaderChoices } from '../cache/answers.js';
import { isOgcPath } from '../protocol/faces.js';

/** Added to the answer cache's key of a page chosen by Accept (the URL alone names the JSON). */
export const HTML_KEY_SUFFIX = '\nhtml';

/** Whether a URL's query has `f` (then the URL alone says which answer it gets). */
export function hasFormatParameter(url: string): boolean {
  return formatParameter(url) !== null;
}

/** The fast path's key suffix for a request (cache/fast-answers.ts): the route handler's choice. */
export function negotiatedKeySuffix(url: string, accept: string | undefined, pages: HeaderChoices<boolean>): string {
  return isOgcPath(url) && pages.choose(accept) && !hasFormatParameter(url) ? HTML_KEY_SUFFIX : '';
}
