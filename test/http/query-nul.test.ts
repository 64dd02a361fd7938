// NUL in a query parameter (issue 48): no text a store holds can contain it (PostgreSQL cannot
// store it), and the original's forms refused it ("Null characters are not allowed.") with a
// 400 naming the field. Every query parameter of every path the two OpenAPI documents describe
// is walked (so a parameter added later is walked too), then the paths they do not describe
// (the map's data, the site's search); test/postgres/query-nul.test.ts runs this file there.
// Where the original answered a parameter otherwise (page, format, page_size), it still does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/in-process.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

interface Parameter {
  name?: string;
  in?: string;
  $ref?: string;
}
interface PathItem {
  parameters?: Parameter[];
  get?: { parameters?: Parameter[] };
}
interface OpenApi {
  paths: Record<string, PathItem>;
  components?: { parameters?: Record<string, Parameter> };
}

/** Every GET path of a document with the names of its query parameters ($refs followed). */
function queryParameters(document: OpenApi): [string, string[]][] {
  const resolved = (p: Parameter) => (p.$ref === undefined ? p : (document.components?.parameters?.[p.$ref.split('/').at(-1) ?? ''] ?? {}));
  return Object.entries(document.paths)
    .filter(([, item]) => item.get !== undefined)
    .map(([path, item]) => [path, [...(item.parameters ?? []), ...(item.get?.parameters ?? [])].map(resolved).filter((p) => p.in === 'query').map((p) => String(p.name))]);
}

async function documentOf(path: string): Promise<OpenApi> {
  const answer = await t.request(path);
  assert.equal(answer.status, 200);
  return answer.json();
}

/** A path template made a real path: an existing record's id (the test catalogue's). */
const concrete = (path: string) => path.replace('{id}', '1').replace('{featureId}', '1').replace('{z}/{x}/{y}', '0/0/0');

const nulSentence = (name: string) => `Invalid ${name}: null characters are not allowed.`;
/** The original's answers to a page, a format and a page size that are not one (DRF's paginator, its content negotiation). */
const API_ELSE: Record<string, { status: number; detail?: string }> = {
  page: { status: 404, detail: 'Invalid page.' },
  format: { status: 404, detail: 'Not found.' },
  page_size: { status: 200 },
};

async function assertRefused(url: string, body: unknown): Promise<void> {
  const answer = await t.request(url);
  assert.equal(answer.status, 400, `${url}: ${answer.text.slice(0, 200)}`);
  assert.equal(answer.headers['content-type'], 'application/json');
  assert.deepEqual(answer.json(), body, url);
}

describe('NUL in any query parameter: a 400 naming it, on every face', () => {
  test('/api/v1/: every parameter of every path; page, format and page_size as the original answered them', async () => {
    const walked = queryParameters(await documentOf('/api/v1/openapi.json')).filter(([path]) => path.startsWith('/api/'));
    assert.ok(walked.some(([, names]) => names.includes('street')), 'the document describes the filters');
    for (const [path, names] of walked) {
      for (const name of names) {
        for (const value of ['%00', 'a%00b']) {
          const url = `${concrete(path)}?${name}=${value}`;
          const otherwise = API_ELSE[name];
          if (otherwise === undefined) {
            await assertRefused(url, { detail: nulSentence(name) });
            continue;
          }
          const answer = await t.request(url);
          assert.equal(answer.status, otherwise.status, url);
          if (otherwise.detail !== undefined) assert.deepEqual(answer.json(), { detail: otherwise.detail }, url);
        }
      }
    }
  });

  test('/ogc/: every parameter of every path, the CQL2 filter text among them', async () => {
    const walked = queryParameters(await documentOf('/ogc/api?f=json'));
    assert.ok(walked.some(([, names]) => names.includes('filter')), 'the document describes the items parameters');
    for (const [path, names] of walked) {
      for (const name of names) {
        for (const value of ['%00', 'a%00b']) {
          await assertRefused(`/ogc${concrete(path)}?${name}=${value}`, { code: 'InvalidParameterValue', description: nulSentence(name) });
        }
      }
    }
  });

  test('the map’s data: every finding-things parameter of the API, and the labels’ box', async () => {
    const [, names] = queryParameters(await documentOf('/api/v1/openapi.json')).find(([path]) => path === '/api/v1/features/') ?? ['', []];
    const filters = names.filter((name) => API_ELSE[name] === undefined);
    assert.ok(filters.includes('q'));
    for (const name of filters) await assertRefused(`/map/matches.json?${name}=a%00`, { detail: nulSentence(name) });
    await assertRefused('/map/labels.json?bbox=%00', { detail: nulSentence('bbox') });
  });

  test('the site’s search: its text fields (the others are refused as what they are)', async () => {
    for (const name of ['q', 'street']) await assertRefused(`/search/?${name}=%00`, { detail: nulSentence(name) });
    for (const name of ['category', 'from', 'to', 'page']) {
      const answer = await t.request(`/search/?${name}=%00`);
      assert.equal(answer.status, 400, name);
      assert.match(answer.json().detail, new RegExp(`^The ${name === 'from' || name === 'to' ? `year ${name}` : name} of the search must be`));
    }
  });

  test('with other parameters, and as the last of a repeated one', async () => {
    await assertRefused('/api/v1/features/?page=2&street=Osborn%20Street&postcode=E1%00', { detail: nulSentence('postcode') });
    await assertRefused('/api/v1/images/?tags=a&tags=%00', { detail: nulSentence('tags') });
    await assertRefused('/ogc/collections/features/items?limit=5&filter=street%3D%27a%00%27', { code: 'InvalidParameterValue', description: nulSentence('filter') });
  });
});

describe('what a text can hold is found or not, the same on both stores', () => {
  const NO_FEATURES = { count: 0, next: null, previous: null, results: { type: 'FeatureCollection', features: [] } };
  // Another control character is text PostgreSQL holds; a bad percent-encoding (a lone
  // surrogate's UTF-8 bytes) is decoded to U+FFFD, which it holds too: neither is refused.
  for (const value of ['%01', '%1F', '%ED%A0%80', '%FF']) {
    test(`street=${value}: no feature, a 200`, async () => {
      const answer = await t.request(`/api/v1/features/?street=${value}`);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json(), NO_FEATURES);
      const items = await t.request(`/ogc/collections/features/items?street=${value}`);
      assert.equal(items.status, 200);
      assert.equal(items.json().numberMatched, 0);
    });
  }
});
