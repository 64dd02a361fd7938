import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LIST_SCHEMAS, RECORD_SCHEMAS } from '../../src/render/schemas.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { assertMatches } from '../support/schemas.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

async function list(collection: 'images' | 'documents' | 'media') {
  const answer = await t.request(`/api/v1/${collection}/`);
  assert.equal(answer.status, 200, answer.text);
  assertMatches(LIST_SCHEMAS[collection], answer.json());
  return answer.json();
}

const geometryOf = (id: number) => buildTestCatalogue().features.find((f) => f.id === id)!.geometry;

describe('images', () => {
  test('the envelope counts published images only, results are an array', async () => {
    const body = await list('images');
    assert.deepEqual({ ...body, results: undefined }, { count: 2, next: null, previous: null, results: undefined });
    assert.deepEqual(body.results.map((r: any) => r.id), [7, 9]);
  });

  test('an image has exactly the spec form, with the searchable nested feature and tags', async () => {
    const image = (await list('images')).results[0];
    assert.deepEqual(image, {
      id: 7,
      title: 'Street front, 1975',
      author: { id: 2, username: 'surveyoflondon' },
      feature: {
        id: 1,
        type: 'Feature',
        geometry: geometryOf(1),
        properties: {
          b_number: '12-14',
          b_name: 'Former Whitechapel electricity-generating station',
          street: 'Osborn Street',
          address: '1 Osborn Street, London E1 6TD',
          feature_type: 'WHITECHAPEL_BUILDING',
          count: 3,
          search_str: '1 Osborn Street',
        },
        tags: ['electricity', 'industry'],
      },
      file: `${t.origin}/media/uploads/features/1/Osborn%20St%201975%20(GLC).jpg`,
      description: 'First line.\nSecond line.',
      copyright: true,
      created: '2016-06-01',
    });
  });

  test("file names are percent-encoded byte by byte, keeping A-Z a-z 0-9 - . _ ~ / ! * ( ) '", async () => {
    const image = (await list('images')).results[1];
    assert.equal(image.file, `${t.origin}/media/uploads/features/5/St%20Mary's%20%232%20%26%20100%25%20%C5%81%C3%B3d%C5%BA.jpg`);
    assert.equal(image.created, null);
  });
});

describe('documents', () => {
  test('published documents only, in the spec form', async () => {
    const body = await list('documents');
    assert.equal(body.count, 1);
    assert.deepEqual(body.results[0], {
      id: 971,
      title: 'Former Whitechapel electricity-generating station',
      author: { id: 2, username: 'surveyoflondon' },
      feature: {
        id: 1,
        type: 'Feature',
        geometry: geometryOf(1),
        properties: {
          b_number: '12-14',
          b_name: 'Former Whitechapel electricity-generating station',
          street: 'Osborn Street',
          address: '1 Osborn Street, London E1 6TD',
          feature_type: 'WHITECHAPEL_BUILDING',
          count: 3,
          search_str: '1 Osborn Street',
        },
        tags: ['electricity', 'industry'],
      },
      body: '<p>Built in <strong>1898</strong>[^1] ...</p><p>[^1]: Survey of London drawings.</p>',
      created: '2016-06-22',
      last_edited: '2017-02-21',
    });
  });
});

describe('media', () => {
  test('the nested feature has neither search_str nor tags', async () => {
    const body = await list('media');
    assert.equal(body.count, 1);
    assert.deepEqual(body.results[0], {
      id: 4,
      title: 'Walking Osborn Street',
      author: { id: 2, username: 'surveyoflondon' },
      feature: {
        id: 1,
        type: 'Feature',
        geometry: geometryOf(1),
        properties: {
          b_number: '12-14',
          b_name: 'Former Whitechapel electricity-generating station',
          street: 'Osborn Street',
          address: '1 Osborn Street, London E1 6TD',
          feature_type: 'WHITECHAPEL_BUILDING',
          count: 3,
        },
      },
      url: 'https://www.youtube.com/watch?v=abcdefghijk',
    });
  });
});

describe('nested feature nulls', () => {
  test('a record on a feature with null b_name and street renders them as ""', async () => {
    const catalogue = buildTestCatalogue();
    catalogue.images[0]!.feature = 15; // b_name null (15 % 3 == 0), street null (15 % 5 == 0)
    const other = await startTestApp({ catalogue });
    try {
      const answer = await other.request('/api/v1/images/7/');
      const properties = answer.json().feature.properties;
      assert.deepEqual([properties.b_name, properties.street, properties.b_number], ['', '', '15']);
    } finally {
      await other.close();
    }
  });
});

describe('detail records', () => {
  for (const [collection, id] of [['images', 7], ['documents', 971], ['media', 4]] as const) {
    test(`/${collection}/${id}/ is the record as listed`, async () => {
      const listed = (await list(collection)).results.find((r: any) => r.id === id);
      const answer = await t.request(`/api/v1/${collection}/${id}/`);
      assert.equal(answer.status, 200);
      assertMatches(RECORD_SCHEMAS[collection], answer.json());
      assert.deepEqual(answer.json(), listed);
    });
  }

  for (const [collection, id] of [['images', 8], ['documents', 972], ['media', 6], ['images', 1], ['media', 'x']] as const) {
    test(`/${collection}/${id}/ (unpublished or unknown) is 404`, async () => {
      const answer = await t.request(`/api/v1/${collection}/${id}/`);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.json(), { detail: 'Not found.' });
    });
  }
});
