// The answers of every face to a fixed list of requests, as digests: what the restructuring
// of issue 46 (and any change that claims to change no behaviour) is held to, byte for byte,
// on both stores. The list and the digests were recorded before the change
// (test/fixtures/answers.json, written by `RECORD_ANSWERS=1`); answers.test.ts asks the same
// requests again and compares.
import { createHash } from 'node:crypto';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import type { Catalogue } from '../../src/catalogue/format.js';
import type { Answer, HttpTarget } from './http.js';

/** A demo catalogue unlike `npm start`'s: another seed, a small scale (every kind of record, a few pages of each). */
export const answersCatalogue = (): Catalogue => generateDemoCatalogue({ scale: 0.03, seed: 46 });

/** The contributors' pages too: every face answers. */
export const ANSWER_SETTINGS = { contributions: 'on' } as const;

/** Headers that tell what an answer is (Date, request ids and timings excepted). */
const KEPT_HEADERS = [
  'content-type', 'content-length', 'content-encoding', 'cache-control', 'etag', 'last-modified', 'location', 'vary', 'link',
  'allow', 'access-control-allow-origin', 'content-disposition', 'content-language', 'content-crs', 'accept-ranges',
  'x-content-type-options', 'content-security-policy', 'referrer-policy', 'x-frame-options', 'cross-origin-opener-policy', 'strict-transport-security',
] as const;

/**
 * The map's script and styles are named by a hash of what they bundle (web/ and the parts of
 * src/ it takes), which a change of a comment or a type moves; the pages' links to them are
 * compared without it, and the bundles themselves are the browser tests' to judge.
 */
const BUNDLE_NAME = /\b(main|styles)-[A-Z0-9]{8}\.(js|css)\b/g;
const isBundle = (url: string) => /^\/map\/assets\/(main|styles)-/.test(url);

/**
 * What varies between two runs of the same code and catalogue: OGC's `timeStamp` (the time
 * of the answer), a form's anti-forgery token and its cookie, and ids made at random.
 */
function steadyText(text: string): string {
  return text
    .replace(/"timeStamp":"[^"]*"/g, '"timeStamp":""')
    .replace(/(name="csrf" value=")[^"]*"/g, '$1"')
    .replace(/(<meta name="csrf-token" content=")[^"]*"/g, '$1"')
    .replace(BUNDLE_NAME, '$1.$2');
}

export interface AnswerDigest {
  status: number;
  headers: Record<string, string>;
  /** sha256 of the body, its varying parts made steady. */
  body: string;
}

export function digestOf(answer: Answer): AnswerDigest {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = answer.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // A catalogue's validators name its database (made afresh for each run) after the version;
  // a built file's (the map's script and styles) are its size and the time it was built.
  if (headers.etag !== undefined) headers.etag = headers.etag.replace(/^((?:W\/)?"\d+-)[^"]*"$/, '$1"');
  if (headers['last-modified'] !== undefined) {
    headers['last-modified'] = 'when built';
    if (headers.etag !== undefined) headers.etag = headers.etag.replace(/-[0-9a-f]+"$/, '-"');
  }
  const type = headers['content-type'] ?? '';
  // A GeoPackage holds the time it was written (gpkg_contents.last_change): its size and headers are compared, not its bytes.
  if (type.includes('geopackage')) return { status: answer.status, headers, body: 'a GeoPackage' };
  const textual = /json|html|xml|text|javascript|css/.test(type);
  const body = textual ? Buffer.from(steadyText(answer.text)) : answer.bytes;
  // A steadied body's length is its own; the header is compared only where nothing was steadied.
  if (textual && body.length !== answer.bytes.length) delete headers['content-length'];
  return { status: answer.status, headers, body: createHash('sha256').update(body).digest('base64url') };
}

/** Requests no link leads to: filters, refusals, tiles, negotiation. */
export const CHOSEN_REQUESTS = [
  '/', '/api/v1/', '/api/v1/openapi.json', '/api/docs/', '/ogc/', '/ogc/api', '/ogc/conformance', '/ogc/collections', '/map', '/robots.txt', '/sitemap.xml',
  '/healthz', '/account/signin', '/account/signup',
  '/api/v1/features/?page_size=3', '/api/v1/features/?page=2&page_size=5', '/api/v1/features/?search=street', '/api/v1/features/?categories=1',
  '/api/v1/images/?feature=1', '/api/v1/documents/?page_size=2', '/api/v1/media/', '/api/v1/query/features/?page_size=2',
  '/api/v1/features/999999/', '/api/v1/features/?page=999', '/api/v1/features/?page_size=abc', '/api/v1/nothing/',
  '/ogc/collections/features/items?limit=5', '/ogc/collections/features/items?limit=3&f=html', '/ogc/collections/features/items?limit=4&f=csv',
  '/ogc/collections/features/items?limit=2&crs=http%3A%2F%2Fwww.opengis.net%2Fdef%2Fcrs%2FEPSG%2F0%2F27700',
  '/ogc/collections/features/items?bbox=-0.08,51.51,-0.06,51.52&limit=6', '/ogc/collections/features/items?sortby=-current&limit=5',
  '/ogc/collections/features/items?filter=current%20%3E%201880&limit=4', '/ogc/collections/features/items?q=street&limit=3',
  '/ogc/collections/features/items?limit=0', '/ogc/collections/features/items?filter=height%20%3D%203',
  '/ogc/collections/images/items?limit=3', '/ogc/collections/documents/items?limit=3&f=html', '/ogc/collections/media/items?f=json',
  '/ogc/collections/features/queryables', '/ogc/collections/features/schema', '/ogc/collections/features/items/1?f=html',
  '/tiles/features.json', '/tiles/features/14/8191/5448.mvt', '/tiles/features/16/32764/21793.mvt', '/tiles/features/3/4/2.mvt',
  '/map/matches.json?q=street&bbox=-0.08,51.51,-0.06,51.52', '/map/streets.json', '/map/config.json',
  '/media/nothing.jpg', '/nothing',
] as const;

const MAX_CRAWLED = 320;
/** Links followed into each first path segment (`places`, `ogc`, …), so that no face crowds out the others. */
const MAX_PER_SECTION = 30;
const sectionOf = (url: string) => url.split(/[/?]/)[1] ?? '';

/** Links of an answer on the same origin, in the order they appear. */
function linksOf(answer: Answer, origin: string): string[] {
  const type = String(answer.headers['content-type'] ?? '');
  if (!/json|html|xml/.test(type)) return [];
  const found: string[] = [];
  for (const match of answer.text.matchAll(/(?:href|src)="([^"]+)"|"href":"([^"]+)"|<loc>([^<]+)<\/loc>/g)) {
    const raw = (match[1] ?? match[2] ?? match[3] ?? '').replaceAll('&amp;', '&');
    const url = (raw.startsWith(origin) ? raw.slice(origin.length) : raw).replace(/#.*$/, '');
    if (url.startsWith('/') && !url.startsWith('//')) found.push(url);
  }
  return found;
}

/** The chosen requests, then what their links lead to, breadth first, up to MAX_CRAWLED in all. */
export async function requestList(target: HttpTarget): Promise<string[]> {
  const seen = new Set<string>(CHOSEN_REQUESTS);
  const queue: string[] = [...CHOSEN_REQUESTS];
  const followed = new Map<string, number>();
  for (let i = 0; i < queue.length && seen.size < MAX_CRAWLED; i++) {
    const url = queue[i];
    if (url === undefined) break;
    for (const link of linksOf(await target.request(url), target.origin)) {
      if (seen.size >= MAX_CRAWLED) break;
      const section = sectionOf(link);
      if (!seen.has(link) && (followed.get(section) ?? 0) < MAX_PER_SECTION) {
        followed.set(section, (followed.get(section) ?? 0) + 1);
        seen.add(link);
        queue.push(link);
      }
    }
  }
  return [...seen].filter((url) => !isBundle(url));
}
