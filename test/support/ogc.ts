// What the OGC API – Features suites share: the test catalogue with a few more dated records
// (the years and dates datetime and sortby need, unpublished ones among them), each
// collection's items as the catalogue says they must be (computed here, from the records),
// and requests that check the envelope on the way.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Catalogue, Feature, MultiPolygon } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from './catalogue.js';
import type { HttpTarget } from './http.js';
import { IN_PROCESS_ORIGIN, startTestApp, type TestApp } from './in-process.js';

export type Collection = 'features' | 'images' | 'documents' | 'media';
export const COLLECTIONS: readonly Collection[] = ['features', 'images', 'documents', 'media'];
export type Value = string | number | boolean | null;

/** More features than the default limit (100), for /req/core/fc-limit-response-1. */
export const OGC_FEATURE_COUNT = 120;

/** A building further along the test catalogue's row of squares. */
function moreBuilding(id: number): Feature {
  const [lon, lat] = [-0.0703927410721712 + id * 0.0001, 51.5168396123456789 + id * 0.00005];
  const d = 0.00007;
  return {
    id, feature_type: 'WHITECHAPEL_BUILDING', b_number: `${id}`, b_name: id % 3 === 0 ? null : `Building ${id}`,
    street: id % 5 === 0 ? null : 'Osborn Street', postcode: 'E1 6TD', address: `${id} Osborn Street, London E1 6TD`,
    current: null, site: null, categories: [], tags: [], search_str: `${id} Osborn Street`,
    geometry: { type: 'MultiPolygon', coordinates: [[[[lon, lat], [lon + d, lat], [lon + d, lat + d], [lon, lat + d], [lon, lat]]]] },
  };
}

/** buildTestCatalogue, plus features up to OGC_FEATURE_COUNT, years on most, and more dated images, documents and media. */
export function ogcCatalogue(): Catalogue {
  const catalogue = buildTestCatalogue();
  const last = Math.max(...catalogue.features.map((f) => f.id));
  for (let k = 1; catalogue.features.length < OGC_FEATURE_COUNT; k++) catalogue.features.push(moreBuilding(last + 2 * k));
  catalogue.features.forEach((feature, i) => {
    // Years from 1880 to 1899, repeated (ties for sortby), every fourth one unknown.
    feature.current = i % 4 === 3 ? null : 1880 + ((i * 7) % 20);
  });
  Object.assign(catalogue.features[10]!, { site: 1, feature_type: 'PLACE', b_name: 'Whitechapel Waste' });
  const ids = catalogue.features.map((f) => f.id);
  const on = (n: number) => ids[n]!;
  catalogue.images.push(
    { id: 10, feature: on(4), author: 2, title: 'street FRONT at night', file: 'uploads/a.jpg', description: 'Lamps.', copyright: false, created: '1999-12-31', published: true },
    { id: 11, feature: on(4), author: 5, title: 'STREET front in snow', file: 'uploads/b.jpg', description: '', copyright: true, created: '2016-06-01', published: true },
    { id: 12, feature: on(9), author: 5, title: 'Yard_2', file: 'uploads/c.jpg', description: '', copyright: true, created: '2016-06-02', published: true },
    { id: 13, feature: on(20), author: 2, title: 'Yard 3', file: 'uploads/d.jpg', description: 'A yard.', copyright: false, created: '2020-02-29', published: true },
    { id: 14, feature: on(30), author: 2, title: '100% Łódź', file: 'uploads/e.jpg', description: '', copyright: false, created: null, published: true },
    { id: 15, feature: on(40), author: 5, title: 'Hidden, dated', file: 'uploads/f.jpg', description: '', copyright: false, created: '2016-06-01', published: false },
    { id: 16, feature: on(44), author: 2, title: 'Corner', file: 'uploads/g.jpg', description: '', copyright: true, created: '1890-01-01', published: true },
  );
  catalogue.documents.push(
    { id: 973, feature: on(4), author: 5, title: 'A yard', body: '<p>Yard <em>history</em>.</p>', created: '2016-06-01', last_edited: '2018-01-01', published: true },
    { id: 974, feature: on(9), author: 2, title: 'street life', body: '<p>Life.</p>', created: '2019-03-04', last_edited: '2019-03-04', published: true },
    { id: 975, feature: on(20), author: 2, title: 'Hidden draft, dated', body: '<p>Hidden</p>', created: '2016-06-01', last_edited: '2016-06-01', published: false },
  );
  catalogue.media.push(
    { id: 11, feature: on(9), author: 5, title: 'Yard tour', url: 'https://vimeo.com/5678', published: true },
    { id: 12, feature: on(20), author: 2, title: 'street walk', url: 'https://www.youtube.com/watch?v=bcdefghijkl', published: true },
  );
  return catalogue;
}

export interface ExpectedItem {
  id: number;
  geometry: MultiPolygon;
  /** The stored properties, as the catalogue gives them (the made URLs left out). */
  properties: Record<string, Value>;
}

/** A collection's published items in id order, with their flat properties, from the records. */
export function expectedItems(catalogue: Catalogue, collection: Collection): ExpectedItem[] {
  const feature = (id: number): Feature => catalogue.features.find((f) => f.id === id)!;
  const author = (id: number) => catalogue.authors.find((a) => a.id === id)!;
  const published = <R extends { feature: number; published: boolean; id: number }>(list: R[], featureId: number) =>
    list.filter((r) => r.published && r.feature === featureId).length;
  const byId = <T extends { id: number }>(list: T[]) => [...list].sort((a, b) => a.id - b.id);
  const attribution = (r: { author: number; feature: number }) => ({
    author: author(r.author).username, author_id: r.author, feature_id: r.feature, address: feature(r.feature).address,
  });
  switch (collection) {
    case 'features':
      return byId(catalogue.features).map((f) => ({
        id: f.id,
        geometry: f.geometry,
        properties: {
          id: f.id, feature_type: f.feature_type, b_number: f.b_number, b_name: f.b_name, street: f.street,
          postcode: f.postcode, address: f.address, current: f.current, site_id: f.site,
          site_name: f.site === null ? null : catalogue.sites.find((s) => s.id === f.site)!.name,
          categories: f.categories.map((c) => catalogue.categories.find((k) => k.id === c)!.name).join('; '),
          category_ids: f.categories.join('; '),
          tags: f.tags.join('; '),
          image_count: published(catalogue.images, f.id), document_count: published(catalogue.documents, f.id), media_count: published(catalogue.media, f.id),
        },
      }));
    case 'images':
      return byId(catalogue.images.filter((r) => r.published)).map((r) => ({
        id: r.id, geometry: feature(r.feature).geometry,
        properties: { id: r.id, title: r.title, description: r.description, copyright: r.copyright, created: r.created, ...attribution(r) },
      }));
    case 'documents':
      return byId(catalogue.documents.filter((r) => r.published)).map((r) => ({
        id: r.id, geometry: feature(r.feature).geometry,
        properties: { id: r.id, title: r.title, body_html: r.body, created: r.created, last_edited: r.last_edited, ...attribution(r) },
      }));
    case 'media':
      return byId(catalogue.media.filter((r) => r.published)).map((r) => ({
        id: r.id, geometry: feature(r.feature).geometry,
        properties: { id: r.id, title: r.title, url: r.url, ...attribution(r) },
      }));
  }
}

/** Ids of the expected items that pass `keep`, in id order. */
export function idsWhere(items: readonly ExpectedItem[], keep: (p: Record<string, Value>, item: ExpectedItem) => boolean): number[] {
  return items.filter((item) => keep(item.properties, item)).map((item) => item.id);
}

/** A 200 answer's body. */
export async function ogcJson(t: HttpTarget, path: string): Promise<any> {
  const answer = await t.request(path);
  assert.equal(answer.status, 200, `${path}: ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer.json();
}

/** A 400 with the OGC exception body; its description. */
export async function ogc400(t: HttpTarget, path: string): Promise<string> {
  const answer = await t.request(path);
  assert.equal(answer.status, 400, `${path}: expected 400, got ${answer.status} ${answer.text.slice(0, 300)}`);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const body = answer.json();
  assert.equal(body.code, 'InvalidParameterValue', path);
  assert.equal(typeof body.description, 'string');
  return body.description as string;
}

/** A link's target as a path and query on this target, for the next request. */
export function linkPath(t: HttpTarget, href: string): string {
  assert.ok(href.startsWith(t.origin), `${href} is not under ${t.origin}`);
  return href.slice(t.origin.length);
}

export function linkOf(body: { links: { rel: string; href: string; type: string; title?: string }[] }, rel: string) {
  return body.links.find((l) => l.rel === rel);
}

/** An items page, with the envelope's counts checked. */
export async function itemsPage(t: HttpTarget, path: string): Promise<any> {
  const body = await ogcJson(t, path);
  assert.equal(body.type, 'FeatureCollection');
  assert.equal(body.numberReturned, body.features.length, `${path}: numberReturned`);
  return body;
}

/** Every page from `path` on, following `next` links; the pages' ids, page by page. */
export async function walkNext(t: HttpTarget, path: string, maxPages = 100): Promise<{ pages: number[][]; bodies: any[] }> {
  const pages: number[][] = [];
  const bodies: any[] = [];
  let at: string | null = path;
  while (at !== null) {
    assert.ok(pages.length < maxPages, `more than ${maxPages} pages from ${path}`);
    const body = await itemsPage(t, at);
    pages.push(body.features.map((f: { id: number }) => f.id));
    bodies.push(body);
    const next = linkOf(body, 'next');
    at = next === undefined ? null : linkPath(t, next.href);
  }
  return { pages, bodies };
}

/** Every matching id in one request (the test catalogue is far below the maximum limit). */
export async function allIds(t: HttpTarget, path: string): Promise<number[]> {
  const separator = path.includes('?') ? '&' : '?';
  const body = await itemsPage(t, `${path}${separator}limit=10000`);
  assert.equal(linkOf(body, 'next'), undefined, `${path}: one page holds every match`);
  assert.equal(body.numberMatched, body.features.length, `${path}: numberMatched`);
  return body.features.map((f: { id: number }) => f.id);
}

/** A query value percent-encoded so that inject() sends it as written (the WHATWG URL encodes `'`). */
export const enc = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface OgcSuite {
  /** The app, in process: usable inside the file's tests (it starts before them, closes after). */
  readonly t: HttpTarget;
  readonly catalogue: Catalogue;
  /** Each collection's items as the records say they must be. */
  readonly expected: Readonly<Record<Collection, ExpectedItem[]>>;
}

/** What every OGC suite starts with: ogcCatalogue() loaded into an app of the tests' store. */
export function useOgcSuite(): OgcSuite {
  const catalogue = ogcCatalogue();
  const expected = Object.fromEntries(COLLECTIONS.map((c) => [c, expectedItems(catalogue, c)])) as Record<Collection, ExpectedItem[]>;
  let app: TestApp | undefined;
  before(async () => {
    app = await startTestApp({ catalogue });
  });
  after(() => app?.close());
  const started = (): TestApp => {
    if (app === undefined) throw new Error('the OGC suite\'s app is used outside its tests');
    return app;
  };
  return { t: { origin: IN_PROCESS_ORIGIN, request: (pathAndQuery, options) => started().request(pathAndQuery, options) }, catalogue, expected };
}
