// GET /ogc/api: the OGC face's OpenAPI 3.0 document, valid under a strict 3.0 validator with
// every $ref resolved, and true to the server: every /ogc/ path reached from the landing page
// is documented and every documented path answers 200 in its documented media type and
// schema; `limit` carries QGIS's bounds; each items path declares its collection's simple
// queryables (listed here by hand) and the server honours them; each documented 400 example
// is what the server answers to its query. And /ogc/docs/, the page showing it.
// On both stores (test/postgres/ twin): the walk reads items, collections and extents.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compileErrors, dereference, validate as validateStrictly } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { createCql2Reader } from '../../src/ogc/cql2/filter.js';
import { buildOgcApiDocument, withOgcServer } from '../../src/openapi/ogc/document.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

type Json = Record<string, any>;

const API = '/ogc/api';
const OPENAPI_30 = 'application/vnd.oai.openapi+json;version=3.0';
const COLLECTIONS = ['features', 'images', 'documents', 'media'];

/** Every path the face serves as an API (not its HTML page), as the issue lists them. */
const EXPECTED_PATHS = [
  '/ogc/',
  '/ogc/api',
  '/ogc/conformance',
  '/ogc/collections',
  ...COLLECTIONS.flatMap((c) => [
    `/ogc/collections/${c}`,
    `/ogc/collections/${c}/items`,
    `/ogc/collections/${c}/items/{featureId}`,
    `/ogc/collections/${c}/queryables`,
    `/ogc/collections/${c}/schema`,
    `/ogc/collections/${c}/feature-schema`,
  ]),
  // OGC API – Tiles (issue 20): the features collection's tileset, and its tile matrix set.
  '/ogc/collections/features/tiles',
  '/ogc/collections/features/tiles/WebMercatorQuad',
  '/ogc/tileMatrixSets',
  '/ogc/tileMatrixSets/WebMercatorQuad',
].sort();

/** The simple queryables of each collection (`name=value`) and their parameter schemas. */
const INTEGER = { type: 'integer' };
const STRING = { type: 'string' };
const DATE = { type: 'string', format: 'date' };
const RECORD_QUERYABLES = { author: STRING, author_id: INTEGER, feature_id: INTEGER, address: STRING };
const SIMPLE_QUERYABLES: Record<string, Record<string, Json>> = {
  features: {
    id: INTEGER, feature_type: STRING, b_number: STRING, b_name: STRING, street: STRING, postcode: STRING, address: STRING,
    current: INTEGER, site_id: INTEGER, site_name: STRING, categories: STRING, image_count: INTEGER, document_count: INTEGER, media_count: INTEGER,
  },
  images: { id: INTEGER, title: STRING, description: STRING, copyright: { type: 'boolean' }, created: DATE, ...RECORD_QUERYABLES },
  documents: { id: INTEGER, title: STRING, created: DATE, last_edited: DATE, ...RECORD_QUERYABLES },
  media: { id: INTEGER, title: STRING, url: STRING, ...RECORD_QUERYABLES },
};

let t: TestApp;
let document: Json;
/** The one server's path (`/ogc`): documented paths are below it. */
let serverPath: string;
before(async () => {
  t = await startTestApp();
  document = (await t.request(API)).json();
  serverPath = new URL(document.servers[0].url).pathname;
});
after(() => t.close());

const openApiValidator = new Validator();

async function strictProblems(candidate: unknown): Promise<string | null> {
  const result = await validateStrictly(structuredClone(candidate) as never);
  return result.valid ? null : compileErrors(result);
}

/** Every `$ref` in the document, with where it is. */
function refsOf(value: unknown, at = '#'): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refsOf(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]): [string, string][] =>
    key === '$ref' && typeof item === 'string' ? [[at, item]] : refsOf(item, `${at}/${key}`),
  );
}

/** A local JSON pointer (`#/components/parameters/limit`) → its target, or undefined. */
function resolvePointer(root: Json, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined;
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Json)[part] : undefined), root);
}

const resolve = (value: Json): Json => (typeof value.$ref === 'string' ? (resolvePointer(document, value.$ref) as Json) : value);
const getOf = (path: string): Json => document.paths[path.slice(serverPath.length)].get;
const documentedPaths = () => Object.keys(document.paths).map((path) => `${serverPath}${path}`);

/** The first record of each collection, read from its items. */
async function firstItem(collection: string): Promise<Json> {
  const page = (await t.request(`/ogc/collections/${collection}/items?limit=1`)).json();
  assert.equal(page.features.length, 1, `the test catalogue has ${collection}`);
  return page.features[0];
}

async function concrete(path: string): Promise<string> {
  if (!path.includes('{featureId}')) return path;
  const collection = /\/collections\/(\w+)\//.exec(path)?.[1] ?? '';
  return path.replace('{featureId}', String((await firstItem(collection)).id));
}

describe('the document', () => {
  test('is OpenAPI 3.0.3, served as its service-desc type, valid under the strict 3.0 schema', async () => {
    const answer = await t.request(API);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], OPENAPI_30);
    assert.equal(document.openapi, '3.0.3');
    assert.deepEqual(await openApiValidator.validate(document as never), { valid: true });
    assert.equal(openApiValidator.version, '3.0');
  });

  test('the 3.0 validator does fail a broken document (a 3.1 type list, a response without description)', async () => {
    const broken = structuredClone(document);
    broken.components.schemas.Exception.properties.code.type = ['string', 'null'];
    assert.equal((await openApiValidator.validate(broken as never)).valid, false);
    const noDescription = structuredClone(document);
    delete noDescription.paths['/conformance'].get.responses['200'].description;
    assert.equal((await openApiValidator.validate(noDescription as never)).valid, false);
  });

  test('every $ref resolves, by hand and by @readme/openapi-parser (strict rules too), with and without the rate limit', async () => {
    const refs = refsOf(document);
    assert.ok(refs.length > 100, `${refs.length} refs`);
    for (const [at, ref] of refs) assert.notEqual(resolvePointer(document, ref), undefined, `${at}: ${ref}`);
    assert.equal(await strictProblems(document), null);
    const dereferenced = (await dereference(structuredClone(document) as never)) as Json;
    assert.deepEqual(refsOf(dereferenced), []);
    const unlimited = withOgcServer(buildOgcApiDocument({ rateLimited: false, cql2: createCql2Reader }), t.origin);
    assert.deepEqual(await openApiValidator.validate(unlimited as never), { valid: true });
    assert.equal(await strictProblems(unlimited), null);
  });

  test('a dangling $ref fails the strict validator', async () => {
    const broken = structuredClone(document);
    delete broken.components.parameters.limit;
    assert.notEqual(await strictProblems(broken), null);
  });

  test('its one server is the landing page under the request\'s base URL; ETag and 304; f=json as application/json', async () => {
    assert.deepEqual(document.servers.map((s: Json) => s.url), [`${t.origin}/ogc`]);
    const other = (await t.request(API, { headers: { host: 'localhost:9' } })).json();
    assert.deepEqual(other.servers.map((s: Json) => s.url), ['http://localhost:9/ogc']);
    const answer = await t.request(API);
    assert.match(String(answer.headers.etag), /^"0-[\w-]+"$/);
    assert.equal((await t.request(API, { headers: { 'if-none-match': String(answer.headers.etag) } })).status, 304);
    const json = await t.request(`${API}?f=json`);
    assert.equal(json.headers['content-type'], 'application/json');
    assert.deepEqual(json.json(), document);
  });

  test('with compression, gzip bytes that decode to the same document', async () => {
    const zipped = await startTestApp({ settings: { compress: '1' } });
    try {
      const plain = await zipped.request(API);
      const answer = await zipped.request(API, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(answer.headers['content-encoding'], 'gzip');
      assert.ok(answer.bytes.length < plain.bytes.length / 4, `${answer.bytes.length} of ${plain.bytes.length}`);
      const { gunzipSync } = await import('node:zlib');
      assert.deepEqual(gunzipSync(answer.bytes), plain.bytes);
    } finally {
      await zipped.close();
    }
  });
});

describe('true to the server', () => {
  test('documents exactly the /ogc/ paths of the issue', () => {
    assert.deepEqual(documentedPaths().sort(), EXPECTED_PATHS);
  });

  test('every /ogc/ path reached from the landing page by its links (items and their ids included) is documented', async () => {
    const templates = documentedPaths().map((p) => new RegExp(`^${p.replace('{featureId}', '\\d+')}$`));
    const seen = new Set<string>();
    const queue = [`${t.origin}/ogc/`];
    const undocumented: string[] = [];
    while (queue.length > 0) {
      const url = new URL(queue.shift()!);
      if (seen.has(url.pathname)) continue;
      seen.add(url.pathname);
      const answer = await t.request(url.pathname + url.search);
      assert.equal(answer.status, 200, url.href);
      if (!templates.some((pattern) => pattern.test(url.pathname))) undocumented.push(url.pathname);
      if (url.pathname === API || !/json/.test(String(answer.headers['content-type']))) continue;
      const body = answer.json();
      const nested = [...(body.collections ?? []), ...(body.tilesets ?? []), ...(body.tileMatrixSets ?? [])];
      const links: Json[] = [...(body.links ?? []), ...nested.flatMap((c: Json) => c.links)];
      for (const link of links) {
        if (link.href.startsWith(`${t.origin}/ogc/`) && link.type !== 'text/html') queue.push(link.href);
      }
      for (const feature of body.features ?? []) queue.push(`${t.origin}${url.pathname}/${feature.id}`);
    }
    assert.deepEqual(undocumented, []);
    // Each template reached: the links lead everywhere the document says.
    for (const pattern of templates) assert.ok([...seen].some((p) => pattern.test(p)), `${pattern} reached`);
  });

  const DOWNLOAD_F: Record<string, string> = {
    'text/csv; charset=utf-8': 'csv',
    'application/flatgeobuf': 'fgb',
    'application/geopackage+sqlite3': 'gpkg',
  };

  test('every documented path answers 200 in each documented media type (f=json for application/json), matching the documented schema', async () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const id = 'https://heritage-api.invalid/ogc/api';
    ajv.addSchema({ $id: id, components: document.components }, id);
    for (const path of documentedPaths()) {
      const ok = getOf(path).responses['200'];
      const types = Object.keys(ok.content);
      assert.ok(types.length > 0, path);
      for (const [i, type] of types.entries()) {
        // The first type when f is absent; application/json with f=json; the page with f=html; the downloads with their f (written here by hand).
        const page = type === 'text/html';
        const download = DOWNLOAD_F[type];
        const target = `${await concrete(path)}${i === 0 ? '' : `?f=${page ? 'html' : (download ?? 'json')}`}`;
        assert.equal(i === 0 || type === 'application/json' || page || download !== undefined, true, `${path}: ${type}`);
        const answer = await t.request(target);
        assert.equal(answer.status, 200, target);
        if (page) {
          assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8', target);
          assert.match(answer.text, /^<!doctype html>/, target);
          continue;
        }
        assert.equal(answer.headers['content-type'], type, target);
        if (download !== undefined) {
          assert.ok(answer.bytes.length > 0, target);
          continue;
        }
        const validate = ajv.getSchema(`${id}${ok.content[type].schema.$ref}`)!;
        assert.ok(validate(answer.json()), `${target}: ${ajv.errorsText(validate.errors)}`);
      }
    }
  });

  test('a body against its schema can fail (the schema check is real)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://x.invalid/d', components: document.components }, 'https://x.invalid/d');
    const validate = ajv.getSchema('https://x.invalid/d#/components/schemas/FeaturesItem')!;
    assert.equal(validate({ type: 'Feature', id: 1, geometry: null, properties: { current: 'eighteen hundred' } }), false);
    assert.equal(validate({ type: 'Feature', id: 1, geometry: null, properties: { current: null, b_name: 'A' } }), true);
  });
});

describe('what QGIS reads', () => {
  test('components.parameters.limit: minimum 1, maximum 10000, default 100; every items path refers to it', () => {
    const limit = document.components.parameters.limit;
    assert.equal(limit.name, 'limit');
    assert.equal(limit.in, 'query');
    assert.deepEqual({ type: limit.schema.type, minimum: limit.schema.minimum, maximum: limit.schema.maximum, default: limit.schema.default }, {
      type: 'integer', minimum: 1, maximum: 10000, default: 100,
    });
    for (const c of COLLECTIONS) {
      assert.ok(getOf(`/ogc/collections/${c}/items`).parameters.some((p: Json) => p.$ref === '#/components/parameters/limit'), c);
    }
  });

  test('the items paths are below the server as /collections/{id}/items, where QGIS and GDAL look them up', () => {
    for (const c of COLLECTIONS) assert.ok(document.paths[`/collections/${c}/items`]?.get, c);
  });

  for (const c of COLLECTIONS) {
    test(`${c}: each simple queryable is a form, non-exploded query parameter of its items path, typed like its property`, () => {
      const parameters = getOf(`/ogc/collections/${c}/items`).parameters.map(resolve);
      const byName = new Map<string, Json>(parameters.map((p: Json) => [p.name, p]));
      for (const [name, schema] of Object.entries(SIMPLE_QUERYABLES[c]!)) {
        const parameter = byName.get(name);
        assert.ok(parameter, `${c}: ${name} declared`);
        assert.deepEqual({ in: parameter.in, style: parameter.style, explode: parameter.explode }, { in: 'query', style: 'form', explode: false }, `${c}: ${name}`);
        assert.deepEqual(parameter.schema, schema, `${c}: ${name}`);
      }
      const others = ['f', 'limit', 'bbox', 'filter', 'filter-lang', 'filter-crs', 'sortby', 'properties', 'skipGeometry', 'q', 'after', 'before', 'offset', 'datetime', 'crs', 'bbox-crs'];
      assert.deepEqual([...byName.keys()].sort(), [...others, ...Object.keys(SIMPLE_QUERYABLES[c]!)].sort());
      const bbox = byName.get('bbox')!;
      assert.deepEqual({ style: bbox.style, explode: bbox.explode, type: bbox.schema.type, items: bbox.schema.items }, { style: 'form', explode: false, type: 'array', items: { type: 'number' } });
      // cql-text: the draft name GDAL's OAPIF driver looks for here before it sends a -where to the server.
      assert.deepEqual(byName.get('filter-lang')!.schema.enum, ['cql2-text', 'cql2-json', 'cql-text']);
      assert.deepEqual(byName.get('f')!.schema.enum, ['json', 'html', 'geojson', 'csv', 'fgb', 'gpkg']);
    });

    test(`${c}: each declared queryable, set to the first item's value, is accepted and finds only items with that value`, async () => {
      const first = await firstItem(c);
      for (const name of Object.keys(SIMPLE_QUERYABLES[c]!)) {
        const value = first.properties[name];
        if (value === null) continue;
        // A list (category names joined by "; "): its last item, which the items found have among theirs.
        const list = name === 'categories';
        const asked = list ? String(value).split('; ').at(-1)! : value;
        const answer = await t.request(`/ogc/collections/${c}/items?${new URLSearchParams({ [name]: String(asked) }).toString()}`);
        assert.equal(answer.status, 200, `${c}?${name}=${asked}: ${answer.text}`);
        const page = answer.json();
        assert.ok(page.features.some((f: Json) => f.id === first.id), `${c}?${name}: the first item`);
        for (const feature of page.features) {
          if (list) assert.ok(feature.properties[name].split('; ').includes(asked), `${c}?${name}`);
          else assert.deepEqual(feature.properties[name], value, `${c}?${name}`);
        }
      }
    });
  }
});

describe('the landing page\'s links', () => {
  test('service-desc answers with its link\'s type (OpenAPI 3.0); service-doc answers HTML', async () => {
    const landing = (await t.request('/ogc/')).json();
    const link = (rel: string) => landing.links.find((l: Json) => l.rel === rel);
    const desc = link('service-desc');
    assert.equal(desc.type, OPENAPI_30);
    const api = await t.request(new URL(desc.href).pathname);
    assert.equal(api.status, 200);
    assert.equal(api.headers['content-type'], desc.type);
    assert.equal(api.json().openapi, '3.0.3');
    const doc = link('service-doc');
    assert.equal(doc.type, 'text/html');
    const page = await t.request(new URL(doc.href).pathname);
    assert.equal(page.status, 200);
    assert.equal(String(page.headers['content-type']).split(';')[0], doc.type);
    assert.match(page.text, /<div id="swagger-ui"><\/div>/);
  });

  test('/ogc/docs/ is /api/docs/\'s page, its script pointing at /ogc/api', async () => {
    const [ogc, api] = await Promise.all([t.request('/ogc/docs/'), t.request('/api/docs/')]);
    assert.deepEqual(ogc.bytes, api.bytes);
    const script = (await t.request('/ogc/docs/init.js')).text;
    const url = /url: '([^']+)'/.exec(script)?.[1] ?? '';
    assert.equal(new URL(url, `${t.origin}/ogc/docs/`).pathname, API);
    assert.equal((await t.request('/ogc/docs/swagger-ui.css')).status, 200);
    const redirect = await t.request('/ogc/docs');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, '/ogc/docs/');
  });
});

describe('errors', () => {
  test('each documented 400 example is the server\'s answer to its query, in the OGC exception shape', async () => {
    let examples = 0;
    for (const path of documentedPaths()) {
      const bad = getOf(path).responses['400'];
      assert.equal(bad.content['application/json'].schema.$ref, '#/components/schemas/Exception', path);
      const target = await concrete(path);
      for (const [name, example] of Object.entries(bad.content['application/json'].examples as Record<string, Json>)) {
        assert.match(example.summary, /^\?/, `${path} ${name}`);
        const answer = await t.request(`${target}${example.summary}`);
        assert.equal(answer.status, 400, `${target}${example.summary}`);
        assert.equal(answer.headers['content-type'], 'application/json');
        const body = answer.json();
        assert.deepEqual(Object.keys(body).sort(), ['code', 'description']);
        assert.equal(body.code, 'InvalidParameterValue');
        assert.deepEqual(body, example.value, `${target}${example.summary}`);
        examples += 1;
      }
    }
    assert.ok(examples >= 24 * 3, `${examples} examples`);
  });

  test('the items paths show the refusals of their own parameters: limit, bbox, filter, sortby', () => {
    for (const c of COLLECTIONS) {
      const names = Object.keys(getOf(`/ogc/collections/${c}/items`).responses['400'].content['application/json'].examples);
      for (const name of ['unknownParameter', 'repeatedParameter', 'invalidLimit', 'invalidBbox', 'invalidFilter', 'invalidSortby']) assert.ok(names.includes(name), `${c}: ${name}`);
    }
  });

  test('404, 405, 414 and 503 are documented with the OGC exception; a real 404 and 405 match it', async () => {
    const { responses } = document.components;
    for (const name of ['NotFound', 'MethodNotAllowed', 'UriTooLong', 'ServiceUnavailable']) {
      assert.equal(responses[name].content['application/json'].schema.$ref, '#/components/schemas/Exception', name);
      assert.ok(responses[name].description.length > 20, name);
    }
    assert.deepEqual(getOf('/ogc/collections/features/items/{featureId}').responses['404'], { $ref: '#/components/responses/NotFound' });
    const missing = await t.request('/ogc/collections/features/items/999999');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), responses.NotFound.content['application/json'].example);
    const posted = await t.request('/ogc/collections', { method: 'POST' });
    assert.equal(posted.status, 405);
    assert.deepEqual(posted.json(), responses.MethodNotAllowed.content['application/json'].example);
    for (const path of documentedPaths()) assert.ok(getOf(path).responses['414'], path);
  });

  test('429 is documented only when rate limited, and a real 429 on /ogc/ has the documented shape', async () => {
    assert.ok(document.components.responses.TooManyRequests, 'the test app is rate limited (RATE_LIMIT default)');
    for (const path of documentedPaths()) assert.deepEqual(getOf(path).responses['429'], { $ref: '#/components/responses/TooManyRequests' }, path);
    const unlimited = await startTestApp({ settings: { rateLimit: 'off' } });
    try {
      const plain = (await unlimited.request(API)).json();
      assert.equal(plain.components.responses.TooManyRequests, undefined);
      assert.ok(Object.keys(plain.paths).every((p) => plain.paths[p].get.responses['429'] === undefined));
    } finally {
      await unlimited.close();
    }
    const limited = await startTestApp({ settings: { rateLimit: '1/minute', rateLimitExempt: '' } });
    try {
      assert.equal((await limited.request('/ogc/conformance')).status, 200);
      const refused = await limited.request('/ogc/api');
      assert.equal(refused.status, 429);
      const documented = document.components.responses.TooManyRequests;
      assert.ok(refused.headers['retry-after'] !== undefined && documented.headers['Retry-After']);
      assert.deepEqual(Object.keys(refused.json()).sort(), ['code', 'description']);
      assert.equal(refused.json().code, documented.content['application/json'].example.code);
    } finally {
      await limited.close();
    }
  });
});
