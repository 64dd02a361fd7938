// Finding things: every filter alone and in combination, answers computed here from the
// catalogue (never by the server's own query code), every page followed to the end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { CAFE_ID, HOLED_ID, TRIANGLE_ID, buildFindingCatalogue } from '../support/finding-catalogue.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const catalogue = buildFindingCatalogue();
let t: TestApp;
before(async () => {
  t = await startTestApp({ catalogue });
});
after(() => t.close());

type Collection = 'features' | 'images' | 'documents' | 'media';
type AnyRecord = Catalogue['images'][number] | Catalogue['documents'][number] | Catalogue['media'][number];

// An independent model of the rules: fold, split, prefix-match.
const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const wordsOf = (...texts: (string | null | undefined)[]) => texts.flatMap((s) => fold(s ?? '').split(/[^a-z0-9\u00c0-\uffff]+/).filter(Boolean));
const matchesAll = (query: string, words: string[]) => wordsOf(query).every((q) => words.some((w) => w.startsWith(q)));
const stripHtml = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/&amp;/g, '&');

const featureById = new Map(catalogue.features.map((f) => [f.id, f]));
const published = {
  images: catalogue.images.filter((r) => r.published),
  documents: catalogue.documents.filter((r) => r.published),
  media: catalogue.media.filter((r) => r.published),
};
const attachments = [...published.images, ...published.documents, ...published.media];
const recordText = (r: AnyRecord) => [r.title, 'description' in r ? r.description : '', 'body' in r ? stripHtml(r.body) : ''];
const categoryName = (id: number) => catalogue.categories.find((c) => c.id === id)!.name;

function featureWords(f: Feature): string[] {
  return wordsOf(
    f.b_number, f.b_name, f.street, f.address, f.postcode, f.search_str, ...f.tags, ...f.categories.map(categoryName),
    ...attachments.filter((r) => r.feature === f.id).flatMap(recordText),
  );
}
const recordWords = (r: AnyRecord) => wordsOf(...recordText(r), featureById.get(r.feature)!.address, featureById.get(r.feature)!.b_name);

/** Axis-aligned squares: for them, meeting the bounding box is meeting the polygon. */
function boxMeets(f: Feature, [x1, y1, x2, y2]: number[]): boolean {
  const points = f.geometry.coordinates.flat(2);
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  return Math.max(...xs) >= x1! && Math.min(...xs) <= x2! && Math.max(...ys) >= y1! && Math.min(...ys) <= y2!;
}

async function allIds(collection: Collection, query: string, pageSize = 7): Promise<{ ids: number[]; count: number }> {
  const ids: number[] = [];
  let url: string | null = `${t.origin}/api/v1/${collection}/?${query}&page_size=${pageSize}`;
  let count = -1;
  while (url) {
    const answer = await t.request(url.slice(t.origin.length));
    assert.equal(answer.status, 200, `${url}: ${answer.text}`);
    const body = answer.json();
    count = body.count;
    const results = collection === 'features' ? body.results.features : body.results;
    ids.push(...results.map((r: { id: number }) => r.id));
    for (const [key, value] of new URLSearchParams(query)) {
      if (body.next) assert.equal(new URL(body.next).searchParams.get(key), value, `next keeps ${key}`);
    }
    url = body.next;
  }
  return { ids, count };
}

function check(collection: Collection, query: string, expected: number[]) {
  test(`${collection}/?${query} → ${expected.length} records`, async () => {
    const { ids, count } = await allIds(collection, query);
    assert.deepEqual(ids, [...expected].sort((a, b) => a - b));
    assert.equal(count, expected.length);
  });
}

const featureIds = (keep: (f: Feature) => boolean) => catalogue.features.filter(keep).map((f) => f.id);
const recordIds = (collection: Exclude<Collection, 'features'>, keep: (r: AnyRecord) => boolean) =>
  (published[collection] as AnyRecord[]).filter(keep).map((r) => r.id);
const authoredBy = (author: number) => new Set(attachments.filter((r) => r.author === author).map((r) => r.feature));

describe('each parameter alone', () => {
  for (const q of ['synag', 'SYNAGOGUE', 'cafe', 'café', 'osborn street', 'ashkenaz', 'pubs', 'snow', 'winter façade', 'nothing-like-this']) {
    check('features', `q=${encodeURIComponent(q)}`, featureIds((f) => matchesAll(q, featureWords(f))));
    for (const c of ['images', 'documents', 'media'] as const) check(c, `q=${encodeURIComponent(q)}`, recordIds(c, (r) => matchesAll(q, recordWords(r))));
  }
  check('features', 'author=5', featureIds((f) => authoredBy(5).has(f.id)));
  for (const c of ['images', 'documents', 'media'] as const) check(c, 'author=5', recordIds(c, (r) => r.author === 5));
  check('features', 'categories=3', featureIds((f) => f.categories.includes(3)));
  check('features', 'categories=4,99', featureIds((f) => f.categories.includes(4)));
  check('features', 'tags=pub', featureIds((f) => f.tags.some((tag) => fold(tag) === 'pub')));
  check('features', 'tags=Jewish%20heritage,industry', featureIds((f) => f.tags.some((tag) => ['jewish heritage', 'industry'].includes(fold(tag)))));
  check('images', 'tags=religion', recordIds('images', (r) => featureById.get(r.feature)!.tags.includes('religion')));
  check('features', 'year_range=1850', featureIds((f) => f.current !== null && f.current >= 1850));
  check('features', 'year_range=1745,1820', featureIds((f) => f.current !== null && f.current >= 1745 && f.current <= 1820));
  check('images', 'date_range=2018-03-04', recordIds('images', (r) => 'created' in r && r.created !== null && r.created >= '2018-03-04'));
  check('images', 'date_range=2016-01-01,2018-03-04', recordIds('images', (r) => 'created' in r && r.created !== null && r.created >= '2016-01-01' && r.created <= '2018-03-04'));
  check('documents', 'date_range=2017-01-01', recordIds('documents', (r) => 'created' in r && r.created! >= '2017-01-01'));
  check('features', 'feature_type=PLACE', featureIds((f) => f.feature_type === 'PLACE'));
  check('features', 'feature_type=PLACE,GREATER_WHITECHAPEL', featureIds((f) => f.feature_type !== 'WHITECHAPEL_BUILDING'));
  check('features', 'site=1', featureIds((f) => f.site === 1));
  check('features', 'street=osborn%20STREET', featureIds((f) => f.street === 'Osborn Street'));
  check('features', 'postcode=e1%206ql', featureIds((f) => f.postcode === 'E1 6QL'));
  check('media', `feature=${TRIANGLE_ID}`, recordIds('media', (r) => r.feature === TRIANGLE_ID));
  check('images', 'feature=1', recordIds('images', (r) => r.feature === 1));
  const streetBox = [-0.0702, 51.5169, -0.0690, 51.5175];
  check('features', `bbox=${streetBox.join(',')}`, featureIds((f) => f.id < 200 && f.id !== 1 && boxMeets(f, streetBox)));
  check('images', `bbox=${streetBox.join(',')}`, recordIds('images', (r) => r.feature < 200 && r.feature !== 1 && boxMeets(featureById.get(r.feature)!, streetBox)));
});

describe('bbox is a true polygon intersection', () => {
  check('features', 'bbox=0.1015,51.6015,0.1025,51.6025', []); // meets the triangle's bounding box only
  check('features', 'bbox=0.1005,51.6005,0.1025,51.6025', [TRIANGLE_ID]); // crosses its long side
  check('features', 'bbox=0.0,51.5,0.1,51.6', [TRIANGLE_ID]); // touches a corner
  check('features', 'bbox=0.204,51.604,0.206,51.606', []); // wholly inside the hole
  check('features', 'bbox=0.2015,51.604,0.203,51.606', [HOLED_ID]); // over the hole's edge
  check('features', 'bbox=0.19,51.59,0.22,51.62', [HOLED_ID]); // the footprint wholly inside the box
  check('features', 'bbox=0.3002,51.6002,0.3004,51.6004', [CAFE_ID]); // the box wholly inside the footprint
  check('features', 'bbox=-180,-90,180,90', catalogue.features.map((f) => f.id));
  // Feature 1's first part is a triangle with a courtyard; this box sits in the courtyard.
  check('features', 'bbox=-0.0703952,51.516858,-0.0703948,51.5168586', []);
  check('features', 'bbox=-0.070395,51.516855,-0.070394,51.516856', [1]); // touches the courtyard's edge
});

describe('combinations (AND) and the query endpoints', () => {
  check('features', 'q=synagogue&feature_type=PLACE&year_range=1890,1900', [CAFE_ID]);
  check('features', 'q=osborn&year_range=1850&street=Osborn%20Street', featureIds((f) => f.street === 'Osborn Street' && f.current !== null && f.current >= 1850));
  check('features', 'categories=3&tags=religion', [CAFE_ID]);
  check('features', 'author=5&bbox=0,51,1,52', [TRIANGLE_ID, CAFE_ID].filter((id) => authoredBy(5).has(id)));
  check('images', 'author=5&date_range=2018-01-01,2018-12-31', recordIds('images', (r) => r.author === 5 && 'created' in r && r.created?.startsWith('2018') === true));
  check('features', 'q=synagogue&site=1', []);

  test('the /api/v1/query/ endpoints give the same answers, with links to themselves', async () => {
    for (const [collection, query] of [['features', 'q=osborn&page_size=5'], ['images', 'author=5'], ['documents', ''], ['media', 'page_size=1']] as const) {
      // No query at all rather than a bare `?`, which inject() cannot send (it drops it).
      const search = query === '' ? '' : `?${query}`;
      const plain = await t.request(`/api/v1/${collection}/${search}`);
      const viaQuery = await t.request(`/api/v1/query/${collection}/${search}`);
      assert.equal(viaQuery.status, 200);
      assert.equal(viaQuery.headers['content-type'], 'application/json');
      assert.equal(viaQuery.text.replaceAll('/api/v1/query/', '/api/v1/'), plain.text);
      if (viaQuery.json().next) assert.ok(viaQuery.json().next.startsWith(`${t.origin}/api/v1/query/${collection}/?`));
    }
  });

  test('an empty result: count 0, page 1 valid, no links; page 2 is Invalid page', async () => {
    const answer = await t.request('/api/v1/features/?q=zzzzzz');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json(), { count: 0, next: null, previous: null, results: { type: 'FeatureCollection', features: [] } });
    const beyond = await t.request('/api/v1/images/?q=zzzzzz&page=2');
    assert.equal(beyond.status, 404);
    assert.deepEqual(beyond.json(), { detail: 'Invalid page.' });
  });

  test('page=last and links keep every filter parameter', async () => {
    const answer = await t.request('/api/v1/features/?street=Osborn+Street&page=last&page_size=4&unknown=1');
    const body = answer.json();
    const expected = featureIds((f) => f.street === 'Osborn Street');
    assert.equal(body.count, expected.length);
    assert.deepEqual(body.results.features.map((f: Feature) => f.id), expected.slice(Math.floor((expected.length - 1) / 4) * 4));
    assert.equal(body.previous, `${t.origin}/api/v1/features/?page=${Math.ceil(expected.length / 4) - 1}&page_size=4&street=Osborn+Street&unknown=1`);
  });

  test('unpublished records are never found', async () => {
    for (const path of ['/api/v1/images/?q=hidden', '/api/v1/images/?feature=203', '/api/v1/documents/?q=draft', '/api/v1/media/?q=hidden']) {
      const body = (await t.request(path)).json();
      assert.equal(body.count, 0, path);
    }
    assert.equal((await t.request(`/api/v1/features/?q=hidden&bbox=0.19,51.59,0.22,51.62`)).json().count, 0);
  });
});

describe('malformed values: 400 naming the parameter and what was expected', () => {
  const bad: [string, string, RegExp][] = [
    ['features', 'bbox=1,2,3', /^Invalid bbox: expected minLon,minLat,maxLon,maxLat/],
    ['features', 'bbox=a,b,c,d', /^Invalid bbox/],
    ['features', 'bbox=10,10,5,5', /^Invalid bbox/],
    ['features', 'bbox=0,0,200,10', /^Invalid bbox/],
    ['images', 'bbox=1,2,3,4,5', /^Invalid bbox/],
    ['features', 'year_range=abc', /^Invalid year_range: expected a year Y, or two years Y1,Y2/],
    ['features', 'year_range=1900,1800', /^Invalid year_range: .*first not after the second/],
    ['features', 'year_range=1,2,3', /^Invalid year_range/],
    ['images', 'date_range=2016-13-40', /^Invalid date_range: expected a date YYYY-MM-DD/],
    ['documents', 'date_range=2016-02-30', /^Invalid date_range/],
    ['images', 'date_range=2017-01-01,2016-01-01', /^Invalid date_range/],
    ['media', 'date_range=2016-01-01', /^Invalid date_range: media records have no date/],
    ['features', 'feature_type=CASTLE', /^Invalid feature_type: expected one or more of WHITECHAPEL_BUILDING/],
    ['features', 'author=me', /^Invalid author: expected an id/],
    ['images', 'feature=-1', /^Invalid feature: expected an id/],
    ['features', 'site=1.5', /^Invalid site/],
    ['features', 'categories=1,x', /^Invalid categories/],
    ['features', 'tags=,,', /^Invalid tags/],
    ['features', `q=${Array.from({ length: 25 }, (_, i) => `w${i}`).join('+')}`, /^Invalid q: expected at most 20 words/],
  ];
  for (const [collection, query, detail] of bad) {
    test(`${collection}/?${query}`, async () => {
      for (const prefix of ['/api/v1/', '/api/v1/query/']) {
        const answer = await t.request(`${prefix}${collection}/?${query}`);
        assert.equal(answer.status, 400);
        assert.equal(answer.headers['content-type'], 'application/json');
        assert.match(answer.json().detail, detail);
      }
    });
  }

  test('parameters that do not apply, unknown ones and empty values are ignored', async () => {
    const whole = (await t.request('/api/v1/images/')).text;
    for (const query of ['categories=3', 'year_range=abc', 'site=x', 'colour=red', 'q=', 'bbox=', 'author=']) {
      const answer = await t.request(`/api/v1/images/?${query}`);
      assert.equal(answer.status, 200, query);
      assert.equal(answer.json().count, whole.length > 0 ? JSON.parse(whole).count : 0, query);
    }
  });
});
