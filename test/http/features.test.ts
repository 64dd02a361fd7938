import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FeatureListSchema, ListedFeatureSchema } from '../../src/render/schemas.js';
import { FEATURE_COUNT, buildTestCatalogue } from '../support/catalogue.js';
import { assertMatches } from '../support/schemas.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const get = async (path: string) => {
  const answer = await t.request(path);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  assertMatches(FeatureListSchema, answer.json());
  return answer.json();
};

describe('features: the list envelope and the FeatureCollection', () => {
  test('page 1: count of the whole collection, next link, no previous', async () => {
    const body = await get('/api/v1/features/');
    assert.equal(body.count, FEATURE_COUNT);
    assert.equal(body.next, `${t.origin}/api/v1/features/?page=2`);
    assert.equal(body.previous, null);
    assert.equal(body.results.type, 'FeatureCollection');
    assert.deepEqual(Object.keys(body.results), ['type', 'features']);
    assert.equal(body.results.features.length, 20);
  });

  test('records in ascending id order across pages', async () => {
    const ids: number[] = [];
    for (const page of [1, 2, 3]) ids.push(...(await get(`/api/v1/features/?page=${page}`)).results.features.map((f: any) => f.id));
    const expected = buildTestCatalogue().features.map((f) => f.id).sort((a, b) => a - b);
    assert.deepEqual(ids, expected);
  });

  test('a listed feature has exactly the listed form, with summaries of published attachments only', async () => {
    const catalogue = buildTestCatalogue();
    const body = await get('/api/v1/features/');
    const feature = body.results.features[0];
    assert.deepEqual(feature, {
      id: 1,
      type: 'Feature',
      geometry: catalogue.features[0]!.geometry,
      properties: {
        b_name: 'Former Whitechapel electricity-generating station',
        address: '1 Osborn Street, London E1 6TD',
        postcode: 'E1 6TD',
        street: 'Osborn Street',
        categories: [
          { id: 4, name: 'Industry & power', description: 'Works, yards and stations.', thumbnail: `${t.origin}/media/categories/industry%20%26%20power.png` },
          { id: 3, name: 'Pubs', description: '', thumbnail: `${t.origin}/media/categories/pubs.png` },
        ],
        count: 3,
        current: null,
        site: { id: 1, name: 'The Royal London Hospital' },
        feature_type: 'WHITECHAPEL_BUILDING',
        documents: [{ id: 971, title: 'Former Whitechapel electricity-generating station', author: { id: 2, username: 'surveyoflondon' } }],
        images: [{ id: 7, title: 'Street front, 1975', author: { id: 2, username: 'surveyoflondon' } }],
        media: [{ id: 4, title: 'Walking Osborn Street', author: { id: 2, username: 'surveyoflondon' } }],
      },
    });
  });

  test('fields not in the listed form: b_number, search_str, tags', async () => {
    const feature = (await get('/api/v1/features/')).results.features[0];
    for (const key of ['b_number', 'search_str', 'tags']) {
      assert.ok(!(key in feature.properties), `properties.${key}`);
      assert.ok(!(key in feature), key);
    }
  });

  test('coordinates come out exactly as they went in, inner rings and parts kept', async () => {
    const body = await get('/api/v1/features/');
    const catalogue = buildTestCatalogue();
    for (const f of body.results.features) {
      assert.deepEqual(f.geometry, catalogue.features.find((c) => c.id === f.id)!.geometry);
    }
    assert.equal(body.results.features[0].geometry.coordinates[0].length, 2, 'outer and inner ring');
    assert.equal(body.results.features[0].geometry.coordinates.length, 2, 'two polygons');
  });

  test('the exact decimal text of coordinates is preserved', async () => {
    const answer = await t.request('/api/v1/features/3/');
    assert.ok(answer.text.includes(String(-0.0703927410721712 + 3 * 0.0001)), answer.text.slice(0, 300));
  });

  test('GREATER_WHITECHAPEL features render their nulls as stored', async () => {
    const feature = (await get('/api/v1/features/')).results.features[1];
    assert.equal(feature.properties.feature_type, 'GREATER_WHITECHAPEL');
    assert.deepEqual(
      { ...feature.properties, feature_type: undefined },
      { b_name: null, address: 'Spitalfields', postcode: 'E1', street: null, categories: [], count: 0, current: null,
        site: null, feature_type: undefined, documents: [], images: [], media: [] },
    );
  });

  test('a feature with only unpublished attachments has count 0 and empty summaries', async () => {
    const feature = (await get('/api/v1/features/')).results.features.find((f: any) => f.id === 7);
    assert.equal(feature.properties.count, 0);
    assert.deepEqual(feature.properties.media, []);
  });
});

describe('features: pagination links', () => {
  const cases = [
    { url: '/api/v1/features/?page=2', next: '/api/v1/features/?page=3', previous: '/api/v1/features/', size: 20 },
    { url: '/api/v1/features/?page=3', next: null, previous: '/api/v1/features/?page=2', size: 5 },
    { url: '/api/v1/features/?page=last', next: null, previous: '/api/v1/features/?page=2', size: 5 },
    { url: '/api/v1/features/?format=api', next: '/api/v1/features/?format=api&page=2', previous: null, size: 20 },
    { url: '/api/v1/features/?page=2&format=api', next: '/api/v1/features/?format=api&page=3', previous: '/api/v1/features/?format=api', size: 20 },
    { url: '/api/v1/features/?format=api&page=3', next: null, previous: '/api/v1/features/?format=api&page=2', size: 5 },
    { url: '/api/v1/features/?format=json&page=2', next: '/api/v1/features/?format=json&page=3', previous: '/api/v1/features/?format=json', size: 20 },
    { url: '/api/v1/features/?page_size=10', next: '/api/v1/features/?page=2&page_size=10', previous: null, size: 10 },
    { url: '/api/v1/features/?page_size=10&page=3', next: '/api/v1/features/?page=4&page_size=10', previous: '/api/v1/features/?page=2&page_size=10', size: 10 },
    { url: '/api/v1/features/?page=last&page_size=10', next: null, previous: '/api/v1/features/?page=4&page_size=10', size: 5 },
    { url: '/api/v1/features/?page_size=100', next: null, previous: null, size: 45 },
    { url: '/api/v1/features/?page_size=1000', next: null, previous: null, size: 45 },
    { url: '/api/v1/features/?page_size=0', next: '/api/v1/features/?page=2&page_size=0', previous: null, size: 20 },
    { url: '/api/v1/features/?page_size=-1', next: '/api/v1/features/?page=2&page_size=-1', previous: null, size: 20 },
    { url: '/api/v1/features/?page_size=abc', next: '/api/v1/features/?page=2&page_size=abc', previous: null, size: 20 },
    { url: '/api/v1/features/?page_size=1e9', next: '/api/v1/features/?page=2&page_size=1e9', previous: null, size: 20 },
    { url: '/api/v1/features/?page=1&page=2', next: '/api/v1/features/?page=3', previous: '/api/v1/features/', size: 20 },
    { url: '/api/v1/features/?zeta=1&alpha=x+y&page=2', next: '/api/v1/features/?alpha=x+y&page=3&zeta=1', previous: '/api/v1/features/?alpha=x+y&zeta=1', size: 20 },
    { url: '/api/v1/features/?utm=caf%C3%A9%2F%21&page=2', next: '/api/v1/features/?page=3&utm=caf%C3%A9%2F%21', previous: '/api/v1/features/?utm=caf%C3%A9%2F%21', size: 20 },
  ];
  for (const c of cases) {
    test(`${c.url}: next ${c.next}, previous ${c.previous}`, async () => {
      const body = await get(c.url);
      assert.equal(body.next, c.next === null ? null : `${t.origin}${c.next}`);
      assert.equal(body.previous, c.previous === null ? null : `${t.origin}${c.previous}`);
      assert.equal(body.results.features.length, c.size);
      assert.equal(body.count, FEATURE_COUNT);
    });
  }

  test('page=last answers the same records as the last page by number', async () => {
    assert.deepEqual(await get('/api/v1/features/?page=last'), await get('/api/v1/features/?page=3'));
  });

  const invalid = ['0', '-1', '4', 'abc', '', '1.0', '1e3', '99999999999999999999', '%00', '%C0%AF', 'LAST'];
  for (const page of invalid) {
    test(`page=${page} is 404 Invalid page.`, async () => {
      const answer = await t.request(`/api/v1/features/?page=${page}`);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.json(), { detail: 'Invalid page.' });
    });
  }

  test('Python int syntax for page is accepted as the original did (" 2", "+2", "0_2")', async () => {
    for (const page of ['%202', '%2B2', '0_2']) {
      const body = await get(`/api/v1/features/?page=${page}`);
      assert.equal(body.results.features[0].id, 41, page);
    }
  });
});

describe('features: detail records', () => {
  test('a feature by id is the listed form', async () => {
    const listed = (await get('/api/v1/features/')).results.features[0];
    const answer = await t.request('/api/v1/features/1/');
    assert.equal(answer.status, 200);
    assertMatches(ListedFeatureSchema, answer.json());
    assert.deepEqual(answer.json(), listed);
  });

  for (const id of ['2', 'abc', '0', '-1', '1.0', '99999999999999999999']) {
    test(`/features/${id}/ is 404 Not found.`, async () => {
      const answer = await t.request(`/api/v1/features/${id}/`);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.json(), { detail: 'Not found.' });
    });
  }
});
