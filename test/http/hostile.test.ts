// Hostile input, property-based: fast-check builds requests from the API's real paths and
// parameters, then mutates them (`..`, `//`, percent-encodings, unicode, long segments, odd
// ids, junk values, repeats, odd methods and headers) and sends them byte for byte to a
// running server. Whatever comes in: never a 5xx, never a hang, JSON on /api/ paths (with
// `detail` on errors), and no unpublished record ever shows.
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import net from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { Catalogue } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { startTestServer, type TestServer } from '../support/server.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 400);
/** In every unpublished record; requests only ever carry prefixes or other cases of it, so an echo is no leak. */
const MARK = 'zqhiddenmarker';
const SECRET = new RegExp(MARK);

/** The test catalogue, its unpublished records marked so that any leak is recognisable. */
function catalogueWithSecrets(): Catalogue {
  const catalogue = buildTestCatalogue();
  for (const image of catalogue.images.filter((i) => i.published === false)) {
    Object.assign(image, { title: `${MARK} image ${image.id}`, description: MARK, file: `uploads/features/${image.feature}/${MARK}-${image.id}.jpg` });
  }
  for (const document of catalogue.documents.filter((d) => d.published === false)) {
    Object.assign(document, { title: `${MARK} document ${document.id}`, body: `<p>${MARK} body</p>` });
  }
  for (const media of catalogue.media.filter((m) => m.published === false)) {
    Object.assign(media, { title: `${MARK} media ${media.id}`, url: `https://vimeo.com/${MARK}-${media.id}` });
  }
  return catalogue;
}

let t: TestServer;
before(async () => {
  t = await startTestServer({ catalogue: catalogueWithSecrets() });
});
after(() => t.close());

const COLLECTIONS = ['features', 'images', 'documents', 'media'];
const REAL_PATHS = [
  '/', '/map/', '/api/', '/api/v1/', '/api/v1', '/api/docs/', '/api/v1/openapi.json', '/healthz', '/readyz', '/metrics',
  '/tiles/features/0/0/0.mvt', '/tiles/features/16/32741/21789.mvt', '/media/categories/pubs.png',
  ...COLLECTIONS.flatMap((c) => [`/api/v1/${c}/`, `/api/v1/query/${c}/`, `/api/v1/${c}/{id}/`]),
];
/** Ids of published and unpublished records, and ids that are not ids at all. */
const IDS = ['1', '3', '7', '8', '9', '4', '6', '971', '972', '0', '-1', '1e9', '1.0', 'abc', '007', '99999999999999999999', '%31', '0x10', ' 1', '1;', 'NaN'];
const SEGMENTS = ['..', '.', '', '%2e%2e', '%2E', '%2f', '%00', '%ff', '%C0%AF', '%', '%zz', 'é', '%C3%A9', '日本', '\u202e', '%F0%9F%92%A9', '~', ';x', 'features', 'FEATURES', 'zqhidden'];
const PARAMS = ['page', 'page_size', 'format', 'q', 'author', 'categories', 'tags', 'year_range', 'date_range', 'feature_type', 'site', 'street', 'postcode', 'bbox', 'feature', '__proto__', 'constructor', 'callback', ''];
const VALUES = [
  '1', '2', 'last', '0', '-1', '1e3', '100', '101', '99999999999999999999', 'json', 'api', 'xml', 'abc', '', '%', '%00', '%zz', '%C0%AF',
  'zqhidden', 'ZqHiddenMarker', 'zqhiddenmarke', 'ZQHIDDENMARKER+image', 'Unpublished', 'draft', 'hidden', '1850,1899', '1899,1850', '2016-01-01,2016-12-31', '2016-02-30', '-0.08,51.51,-0.06,51.52',
  '-0.08,51.51,-0.06', 'NaN,NaN,NaN,NaN', '1e308,1e308,-1e308,-1e308', '3,11', ',,,', 'PLACE,GREATER_WHITECHAPEL', 'x'.repeat(300),
  'caf%C3%A9', '%E2%80%AE', '+', '%2B', '*', '"', "'", '<script>', '%3Cscript%3E',
];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND', 'M-SEARCH', 'get', 'G3T', 'X'.repeat(40), 'GET\u00e9', 'BREW', 'CONNECT'];
const HOSTS = ['localhost', 'localhost', 'localhost', '127.0.0.1', '[::1]', 'LOCALHOST.', 'localhost:abc', 'evil.example', '', 'localhost, evil.example', 'a'.repeat(300), 'local\u00e9host', '127.0.0.1:1:2'];
const HEADERS: [string, string[]][] = [
  ['Accept', ['application/json', 'text/html', '*/*', 'application/xml', 'application/json; q=0', 'junk/', '']],
  ['If-None-Match', ['*', '"x"', 'W/"1-abc"', '"', 'x'.repeat(500)]],
  ['Range', ['bytes=0-10', 'bytes=abc', 'bytes=-1', 'bytes=99999999999-', 'items=0-1']],
  ['Accept-Encoding', ['gzip', 'br', 'gzip;q=0, br;q=0', 'identity;q=0', 'x'.repeat(100)]],
  ['Origin', ['http://evil.example', 'null', '']],
  ['X-Forwarded-For', ['1.2.3.4', 'junk', '::1, 10.0.0.1']],
  ['X-Forwarded-Host', ['evil.example', 'localhost']],
  ['X-Request-Id', ['abc', 'x'.repeat(1000), '\u00e9\u00e9']],
  ['Content-Length', ['0', '5', 'abc']],
  ['Transfer-Encoding', ['chunked', 'gzip']],
  ['X-Odd', ['\u0001', '\u00ff\u00fe', 'a\tb']],
  ['Upgrade', ['websocket', 'h2c']],
];

const idPath = fc.tuple(fc.constantFrom(...REAL_PATHS), fc.constantFrom(...IDS)).map(([p, id]) => p.replace('{id}', id));
const longSegment = fc.integer({ min: 50, max: 6000 }).map((n) => 'a'.repeat(n));
/** A real path with one of: a segment inserted or replaced, `//`, no trailing slash, upper case. */
const mutatedPath = fc
  .tuple(idPath, fc.oneof(fc.constantFrom(...SEGMENTS), longSegment), fc.nat(), fc.constantFrom('insert', 'replace', 'double-slash', 'strip-slash', 'upper', 'encode'))
  .map(([path, segment, at, how]) => {
    const parts = path.split('/');
    const i = 1 + (at % Math.max(1, parts.length - 1));
    if (how === 'insert') parts.splice(i, 0, segment);
    if (how === 'replace') parts[i] = segment;
    if (how === 'double-slash') parts.splice(i, 0, '');
    if (how === 'upper') return path.toUpperCase();
    if (how === 'encode') return path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
    const joined = parts.join('/');
    return how === 'strip-slash' ? joined.replace(/\/$/, '') : joined;
  });
const pair = fc.tuple(fc.constantFrom(...PARAMS), fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 20 }).map(encodeURIComponent)), fc.constantFrom('=', '', '=='));
const query = fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([k, v, eq]) => (eq === '' ? k : `${k}${eq}${v}`)).join(fc.sample(fc.constantFrom('&', '&&', ';'), 1)[0]));
const target = fc.tuple(fc.oneof(idPath, mutatedPath), fc.option(query, { nil: undefined })).map(([p, q]) => (q === undefined ? p : `${p}?${q}`));
const headers = fc.subarray(HEADERS).chain((names) => fc.tuple(...names.map(([name, values]) => fc.constantFrom(...values).map((v) => [name, v] as const))));
const requestShape = fc.record({
  method: fc.constantFrom(...METHODS),
  target,
  host: fc.option(fc.constantFrom(...HOSTS), { nil: undefined, freq: 8 }),
  headers,
});
type RequestShape = { method: string; target: string; host: string | undefined; headers: readonly (readonly [string, string])[] };

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request written byte for byte (latin1), the answer read until the server closes. */
function send(origin: string, r: RequestShape): Promise<RawAnswer> {
  const { port } = new URL(origin);
  const lines = [`${r.method} ${r.target} HTTP/1.1`];
  if (r.host !== undefined) lines.push(`Host: ${r.host === 'localhost' ? `localhost:${port}` : r.host}`);
  for (const [name, value] of r.headers) lines.push(`${name}: ${value}`);
  lines.push('Connection: close', '', '');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(Buffer.from(lines.join('\r\n'), 'latin1')));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s: a hang')));
    socket.on('end', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks), r.method === 'HEAD'));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseAnswer(raw: Buffer, head: boolean): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  assert.ok(end > 0, `no HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = head ? Buffer.alloc(0) : raw.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked' && !head) body = unchunk(body);
  // Decoded, so that the checks (a leaked secret, JSON) read what the client reads.
  if (!head && headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
  if (!head && headers['content-encoding'] === 'br') body = zlib.brotliDecompressSync(body);
  return { status, headers, body };
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The API's JSON paths; the documentation page under /api/docs/ is HTML by design. */
function isJsonApiPath(target: string): boolean {
  const path = target.split('?')[0]!;
  return path.startsWith('/api/') && !path.toLowerCase().startsWith('/api/docs');
}

function checkAnswer(r: RequestShape, answer: RawAnswer): void {
  const where = `${r.method} ${r.target.slice(0, 200)} (Host ${r.host?.slice(0, 40)}): ${answer.status}`;
  assert.ok(answer.status >= 200 && answer.status < 500, where);
  assert.doesNotMatch(answer.body.toString('utf8'), SECRET, `${where}: an unpublished record leaked`);
  for (const value of Object.values(answer.headers)) assert.doesNotMatch(value, SECRET, `${where}: leaked in a header`);
  const hasBody = answer.body.length > 0;
  if (answer.status >= 400 && r.method !== 'HEAD') {
    const asked = r.headers.filter(([name]) => name.toLowerCase() === 'accept').map(([, value]) => value);
    if ((answer.headers['content-type'] ?? '').startsWith('text/html')) {
      // A browser's refusal outside /api/ may be a page (issue 36): only when it asked for HTML, and saying the status.
      assert.ok(asked.some((a) => a.includes('text/html')), `${where}: a page nobody asked for`);
      assert.ok(!r.target.startsWith('/api/'), `${where}: /api/ refuses in JSON`);
      assert.match(answer.body.toString('utf8'), new RegExp(`Status ${answer.status}`), where);
    } else {
      // Every other refusal, on any path (and before routing: broken HTTP), is JSON with a detail.
      assert.match(answer.headers['content-type'] ?? '', /^application\/json/, where);
      assert.equal(typeof JSON.parse(answer.body.toString('utf8')).detail, 'string', where);
    }
  } else if (isJsonApiPath(r.target) && hasBody) {
    assert.match(answer.headers['content-type'] ?? '', /^application\/json/, where);
    assert.doesNotThrow(() => JSON.parse(answer.body.toString('utf8')), where);
  }
}

test(`hostile requests (${RUNS} generated): never a 5xx or a hang, JSON on /api/, nothing unpublished`, { timeout: 240_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(requestShape, async (r) => checkAnswer(r, await send(t.origin, r))),
    { numRuns: RUNS, seed: process.env.HOSTILE_SEED === undefined ? undefined : Number(process.env.HOSTILE_SEED) },
  );
  const health = await send(t.origin, { method: 'GET', target: '/api/v1/features/', host: 'localhost', headers: [] });
  assert.equal(health.status, 200, 'the server still answers');
});

test('the checks can fail: a leaked title, a 5xx, a non-JSON refusal', async () => {
  const get = { method: 'GET', target: '/api/v1/images/', host: 'localhost', headers: [] };
  const json = { 'content-type': 'application/json' };
  assert.throws(() => checkAnswer(get, { status: 200, headers: json, body: Buffer.from(`{"title":"${MARK} image 8"}`) }));
  assert.throws(() => checkAnswer(get, { status: 500, headers: json, body: Buffer.from('{"detail":"x"}') }));
  assert.throws(() => checkAnswer(get, { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Not found') }));
  checkAnswer(get, { status: 404, headers: json, body: Buffer.from('{"detail":"Not found."}') });
});

test('the unpublished records are in the catalogue, and a search for them finds nothing', async () => {
  const catalogue = catalogueWithSecrets();
  const hidden = [...catalogue.images, ...catalogue.documents, ...catalogue.media].filter((r) => r.published === false);
  assert.ok(hidden.length >= 3 && hidden.every((r) => SECRET.test(r.title)));
  const answer = await send(t.origin, { method: 'GET', target: '/api/v1/images/?q=ZqHiddenMarker', host: 'localhost', headers: [] });
  assert.equal(answer.status, 200);
  assert.equal(JSON.parse(answer.body.toString('utf8')).count, 0);
});
