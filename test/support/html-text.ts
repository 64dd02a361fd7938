// Reading the pages' HTML in tests, written here once rather than with the code under test:
// text as a template must escape it, the one JSON-LD block, the meta description, a media URL.
import assert from 'node:assert/strict';

/** The text of HTML escaped as a template must write it. */
export const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
export const unescaped = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The page's JSON-LD, asserting there is exactly one block. */
export function jsonLd(html: string): Record<string, any> {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^]*?)<\/script>/g)];
  assert.equal(blocks.length, 1, 'one JSON-LD block');
  return JSON.parse(blocks[0]![1]!);
}

export function metaDescription(html: string): string | null {
  const m = /<meta name="description" content="([^"]*)">/.exec(html);
  return m === null ? null : unescaped(m[1]!);
}

/** A media file's URL under `origin`, its path's parts encoded and its slashes kept. */
export const mediaPath = (origin: string, p: string) => `${origin}/media/${encodeURIComponent(p).replaceAll('%2F', '/')}`;
