// GET /api/v1/openapi.json: a valid OpenAPI 3.1 document that says what the server does —
// every documented path answers, every route is documented, every documented parameter
// value is accepted and every malformed one refused — and the /api/docs/ page. (Every other
// answer of the suites is checked against the document by test/support/openapi-check.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compileErrors, validate as validateStrictly } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { COLLECTIONS } from '../../src/constants.js';
import { API_ENDPOINTS } from '../../src/endpoints/endpoints.js';
import { filterParametersOf } from '../../src/http/api/filters.js';
import { buildOpenApiDocument, openApiPath, READ_ONLY_PATH, withServer } from '../../src/openapi/document.js';
import * as wireShapes from '../../src/render/schemas.js';
import { request } from '../support/http.js';
import { checkApiAnswer } from '../support/openapi-check.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const OPENAPI = '/api/v1/openapi.json';
type Json = Record<string, any>;

let t: TestApp;
let document: Json;
/** The API's own paths (other parts of the service may add theirs to the document). */
const apiPaths = (): [string, Json][] => Object.entries(document.paths as Json).filter(([path]) => path.startsWith('/api/'));
/** A path item's operations by method (its other keys are the path's description and parameters). */
const OPERATION_KEYS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operationsOf = (item: Json): [string, Json][] => Object.entries(item).filter(([key]) => OPERATION_KEYS.includes(key));
before(async () => {
  t = await startTestApp();
  document = (await t.request(OPENAPI)).json();
});
after(() => t.close());

/** Compiled once for the file: the OpenAPI 3.1 meta-schemas are large. */
const openApiValidator = new Validator();

async function validateOpenApi(candidate: unknown) {
  return openApiValidator.validate(candidate as never);
}

/** The semantic rules the JSON Schema of OpenAPI cannot say: path parameters declared, unique operationIds… (a copy: it dereferences in place). */
async function strictProblems(candidate: unknown): Promise<string | null> {
  const result = await validateStrictly(structuredClone(candidate) as never);
  return result.valid ? null : compileErrors(result);
}

/** A documented path with its `{id}` replaced by a record that exists. */
async function concretePath(path: string): Promise<string> {
  if (!path.includes('{id}')) return path;
  const list = (await t.request(path.replace('{id}/', ''))).json();
  const first = Array.isArray(list.results) ? list.results[0] : list.results.features[0];
  return path.replace('{id}', String(first.id));
}

describe('the document', () => {
  test('is served as application/json with an ETag, and is valid OpenAPI 3.1', async () => {
    const answer = await t.request(OPENAPI);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.match(String(answer.headers.etag), /^"0-[\w-]+"$/);
    assert.equal(document.openapi, '3.1.0');
    assert.deepEqual(await validateOpenApi(document), { valid: true });
    const again = await t.request(OPENAPI, { headers: { 'if-none-match': String(answer.headers.etag) } });
    assert.equal(again.status, 304);
  });

  test('the validator does fail a broken document', async () => {
    const broken = structuredClone(document);
    broken.paths['/api/v1/features/'].get.responses = 'none';
    assert.equal((await validateOpenApi(broken)).valid, false);
  });

  test('passes a strict semantic validator (@readme/openapi-parser): every path parameter declared, every operationId unique', async () => {
    assert.equal(await strictProblems(document), null);
    assert.equal(await strictProblems(withServer(buildOpenApiDocument({ rateLimited: false }), t.origin)), null);
  });

  test('the strict validator does fail a path whose parameter is not declared', async () => {
    const broken = structuredClone(document);
    delete broken.paths['/api/v1/features/{id}/'].parameters;
    assert.match(String(await strictProblems(broken)), /missing path parameter\(s\) for `\{id\}`/);
  });

  test('is the one built from the declarations, with the request\'s base URL as its server', async () => {
    // Oracle: the implementation's own builder; what the document says is checked by the tests below.
    assert.deepEqual(document, withServer(buildOpenApiDocument({ rateLimited: true }), t.origin));
    const other = await t.request(OPENAPI, { headers: { host: `localhost:8123` } });
    assert.deepEqual(other.json().servers, [{ url: `http://localhost:8123` }]);
  });

  test('with BASE_URL its server is BASE_URL', async () => {
    const behind = await startTestApp({ settings: { baseUrl: 'https://heritage.example.org/survey' } });
    try {
      assert.deepEqual((await behind.request(OPENAPI)).json().servers, [{ url: 'https://heritage.example.org/survey' }]);
    } finally {
      await behind.close();
    }
  });

  test('a Host that is not allowed gets 400, as everywhere on the API', async () => {
    const answer = await t.request(OPENAPI, { headers: { host: 'evil.example' } });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.json(), { detail: 'Invalid host header.' });
  });

  test('has a component for every wire shape, each nested shape a $ref', () => {
    const titles = Object.values(wireShapes).map((s) => (s as { title?: string }).title).filter((x) => typeof x === 'string');
    for (const name of ['FeatureList', 'ListedFeature', 'SearchableFeature', 'MediaFeature', 'Image', 'Document', 'Media', 'Author', 'Category', 'Site', 'Error']) {
      assert.ok(titles.includes(name), name);
    }
    assert.deepEqual(Object.keys(document.components.schemas).sort(), [...titles].sort());
    assert.deepEqual(document.components.schemas.Image.properties.author, { $ref: '#/components/schemas/Author' });
  });
});

describe('paths and routes agree', () => {
  // Oracle: the endpoint table the routes are registered from.
  test('every route of the endpoint table is documented, and nothing else under /api/', () => {
    assert.deepEqual(apiPaths().map(([path]) => path).sort(), API_ENDPOINTS.map((e) => openApiPath(e.url)).sort());
  });

  test('every documented path answers GET, HEAD and OPTIONS with 200, its only operations; its description names the 405 of POST, PUT, PATCH, DELETE', async () => {
    for (const [path, item] of apiPaths()) {
      const concrete = await concretePath(path);
      assert.deepEqual(operationsOf(item).map(([method]) => method), ['get', 'head', 'options'], path);
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        assert.ok(item[method.toLowerCase()].responses['200'], `${method} ${path}`);
        assert.equal((await t.request(concrete, { method })).status, 200, `${method} ${concrete}`);
      }
      assert.equal(item.description, READ_ONLY_PATH);
      assert.match(item.description, /405 \(the `MethodNotAllowed` response/);
      // request() checks each 405 against the document: the response the description names.
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        assert.equal((await t.request(concrete, { method })).status, 405, `${method} ${concrete}`);
      }
    }
    assert.equal(document.components.responses.MethodNotAllowed.content['application/json'].schema.$ref, '#/components/schemas/Error');
  });

  test('a detail path declares its {id} once, for every operation', () => {
    for (const [path, item] of apiPaths()) {
      const declared = (item.parameters ?? []).map((p: Json) => p.$ref);
      assert.deepEqual(declared, path.includes('{id}') ? ['#/components/parameters/id'] : [], path);
    }
  });

  test('every operation documents 400 and 414, and 429 while rate limiting is on', () => {
    for (const [path, item] of apiPaths()) {
      for (const [method, operation] of operationsOf(item)) {
        for (const status of ['400', '414', '429']) assert.ok(operation.responses[status], `${method} ${path} ${status}`);
      }
    }
  });

  test('without rate limiting no 429 is documented', async () => {
    const unlimited = await startTestApp({ settings: { rateLimit: 'off' } });
    try {
      const text = (await unlimited.request(OPENAPI)).text;
      assert.ok(!text.includes('"429"') && !text.includes('RateLimit-'));
    } finally {
      await unlimited.close();
    }
  });
});

describe('parameters', () => {
  const listPaths = API_ENDPOINTS.filter((e) => e.kind === 'list');
  const parameterNames = (path: string): string[] =>
    document.paths[path].get.parameters.map((p: Json) => p.$ref.split('/').pop());

  test('each collection documents paging, format and the filters it takes', () => {
    for (const endpoint of listPaths) {
      const names = parameterNames(endpoint.url);
      const unoffered = endpoint.collection === 'features' || endpoint.collection === 'media' ? ['date_range'] : [];
      // Oracle: the filters the HTTP layer accepts (http/api/filters.ts); filters.test.ts checks what each does.
      const filters = filterParametersOf(endpoint.collection!).filter((n) => !unoffered.includes(n));
      assert.deepEqual(names, ['page', 'page_size', 'format', ...filters], endpoint.url);
    }
  });

  test('no parameter has a value Swagger UI would fill in for "Try it out" but its default: examples are in the schema\'s `examples`', () => {
    const filters = Object.entries(document.components.parameters as Json).filter(([name]) => !['id', 'page', 'page_size', 'format'].includes(name));
    assert.ok(filters.length >= 12);
    for (const [name, parameter] of Object.entries(document.components.parameters as Json)) {
      assert.equal(parameter.example, undefined, name);
      assert.equal(parameter.examples, undefined, name);
      assert.equal(parameter.schema.example, undefined, name);
      assert.equal(parameter.default, undefined, name);
      if (name !== 'page_size') assert.equal(parameter.schema.default, undefined, name);
    }
    for (const [name, parameter] of filters) {
      assert.equal(parameter.schema.examples?.length, 1, name);
      assert.ok(parameter.description.endsWith(` Example: \`${parameter.schema.examples[0]}\`.`), name);
    }
  });

  test('page_size is 1-100 and format json or api', () => {
    const { page_size, format } = document.components.parameters;
    assert.equal(page_size.schema.minimum, 1);
    assert.equal(page_size.schema.maximum, 100);
    assert.deepEqual(format.schema.enum, ['json', 'api']);
  });

  test('every example value is accepted, and a value outside a pattern or integer range is a 400 naming it', async () => {
    for (const endpoint of listPaths) {
      for (const name of parameterNames(endpoint.url)) {
        const parameter = document.components.parameters[name];
        for (const example of parameter.schema.examples ?? []) {
          const ok = await t.request(`${endpoint.url}?${name}=${encodeURIComponent(example)}`);
          assert.equal(ok.status, 200, `${endpoint.url} ${name}=${example}`);
        }
        if (parameter.schema.pattern === undefined && parameter.schema.type !== 'integer') continue;
        if (['page', 'page_size'].includes(name)) continue; // paging answers 404 / ignores, as the original did
        const bad = await t.request(`${endpoint.url}?${name}=not-valid`);
        assert.ok(!new RegExp(parameter.schema.pattern ?? '^\\d+$').test('not-valid'));
        assert.equal(bad.status, 400, `${endpoint.url} ${name}`);
        assert.match(bad.json().detail, new RegExp(`^Invalid ${name}`));
      }
    }
  });
});

describe('the response check of the suites', () => {
  const ok = {
    status: 200,
    headers: { 'content-type': 'application/json', vary: 'Accept', allow: 'GET, HEAD, OPTIONS', etag: '"1-x"', 'cache-control': 'public' },
  };

  test('passes a real answer and fails one that breaks the document', async () => {
    const answer = await t.request('/api/v1/features/1/');
    const get = { method: 'GET', pathAndQuery: '/api/v1/features/1/', headers: {} };
    assert.equal(checkApiAnswer(get, answer), null);
    const tampered = { ...answer.json(), extra: true };
    assert.match(String(checkApiAnswer(get, { ...ok, bytes: Buffer.from(JSON.stringify(tampered)) })), /does not match/);
    assert.match(String(checkApiAnswer(get, { ...ok, status: 418, bytes: Buffer.from('{}') })), /status 418 is not documented/);
    assert.match(String(checkApiAnswer({ ...get, pathAndQuery: '/api/v1/nothing/' }, { ...ok, bytes: Buffer.from('{}') })), /undocumented path/);
    assert.match(String(checkApiAnswer({ ...get, method: 'HEAD' }, { ...ok, bytes: Buffer.from('{}') })), /HEAD answered with a body/);
    const refused = await t.request('/api/v1/features/1/', { method: 'DELETE' });
    const remove = { ...get, method: 'DELETE' };
    assert.equal(checkApiAnswer(remove, refused), null);
    assert.match(String(checkApiAnswer(remove, { ...refused, bytes: Buffer.from('{"detail": 405}') })), /does not match/);
    assert.match(String(checkApiAnswer(remove, answer)), /DELETE is not documented for \/api\/v1\/features\/\{id\}\/, and 200 is not/);
  });
});

describe('the API root links to the document and the reference page', () => {
  const linkHeader = (base: string) =>
    `<${base}/api/v1/openapi.json>; rel="service-desc"; type="application/vnd.oai.openapi+json;version=3.1", <${base}/api/docs/>; rel="service-doc"; type="text/html"`;

  test('in a Link header (GET and HEAD), the body keeping exactly its four links', async () => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await t.request('/api/v1/', { method });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.link, linkHeader(t.origin), method);
    }
    const api = `${t.origin}/api/v1`;
    const body = (await t.request('/api/v1/')).text;
    assert.equal(body, JSON.stringify({ features: `${api}/features/`, documents: `${api}/documents/`, images: `${api}/images/`, media: `${api}/media/` }));
  });

  test('each link answers, with the type it names', async () => {
    const document = await t.request('/api/v1/openapi.json');
    assert.equal(document.status, 200);
    assert.equal(document.json().openapi, '3.1.0');
    const page = await t.request('/api/docs/');
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  });

  test('built from the same base URL as every link: the Host, or BASE_URL', async () => {
    const other = await t.request('/api/v1/', { headers: { host: `localhost:8123` } });
    assert.equal(other.headers.link, linkHeader(`http://localhost:8123`));
    const behind = await startTestApp({ settings: { baseUrl: 'https://heritage.example.org/survey' } });
    try {
      assert.equal((await behind.request('/api/v1/?format=api')).headers.link, linkHeader('https://heritage.example.org/survey'));
    } finally {
      await behind.close();
    }
  });

  test('only on the root\'s 200, where the document says it is always sent', async () => {
    assert.equal((await t.request('/api/v1/?format=xml')).headers.link, undefined);
    assert.equal((await t.request('/api/v1/features/')).headers.link, undefined);
    for (const method of ['get', 'head']) {
      assert.deepEqual(Object.keys(document.paths['/api/v1/'][method].responses['200'].headers).filter((h) => h === 'Link'), ['Link'], method);
      assert.equal(document.paths['/api/v1/'][method].responses['200'].headers.Link.required, true, method);
    }
    assert.equal(document.paths['/api/v1/features/'].get.responses['200'].headers.Link, undefined);
  });
});

describe('/api/docs/', () => {
  test('a page that loads only this server\'s own files', async () => {
    const page = await t.request('/api/docs/');
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(sources.length >= 3);
    for (const source of sources) {
      assert.ok(!/^[a-z]+:|^\/\//i.test(source), `relative: ${source}`);
      const asset = await t.request(`/api/docs/${source}`);
      assert.equal(asset.status, 200, source);
      assert.ok(asset.bytes.length > 0, source);
    }
    const init = await t.request('/api/docs/init.js');
    assert.match(init.text, /url: '\.\.\/v1\/openapi\.json'/);
    assert.match(init.text, /validatorUrl: null/);
  });

  test('/api/docs redirects to /api/docs/', async () => {
    const answer = await t.request('/api/docs');
    assert.equal(answer.status, 301);
    assert.equal(answer.headers.location, '/api/docs/');
  });
});

test('every collection has its three paths', () => {
  for (const collection of COLLECTIONS) {
    for (const path of [`/api/v1/${collection}/`, `/api/v1/query/${collection}/`, `/api/v1/${collection}/{id}/`]) assert.ok(document.paths[path], path);
  }
});
