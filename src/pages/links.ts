// A page's links to itself as data: the same URL with another `f`.
import { CONTENT_TYPE_JSON } from '../constants.js';
import type { Alternate } from './shell.js';

/** The same URL asked in format `f`, in place of any `f` it had. */
export function withFormat(url: string, f: string): string {
  const at = url.indexOf('?');
  const params = new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
  params.set('f', f);
  return `${at === -1 ? url : url.slice(0, at)}?${params.toString()}`;
}

export function jsonAlternate(url: string, title: string, type = CONTENT_TYPE_JSON): Alternate {
  return { href: withFormat(url, 'json'), type, title };
}
