import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatCatalogue } from '../src/catalogue/dump.js';
import { defaultSearchStr, type Catalogue } from '../src/catalogue/format.js';
import { parseCatalogueBytes, validateCatalogue } from '../src/catalogue/validate.js';
import { formatProgress } from '../src/cli/report.js';
import { HarvestClient } from '../src/harvest/client.js';
import { HarvestError } from '../src/harvest/errors.js';
import { harvestApi, type HarvestSettings } from '../src/harvest/harvest.js';
import { mediaPathOf } from '../src/harvest/media-path.js';
import { backoffMs, parseRetryAfter } from '../src/harvest/retry.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { exitCode, runCli, spawnCli } from './support/cli.js';
import { crawl } from './support/crawl.js';
import { startFlakyServer, type Fault, type FlakyOptions, type FlakyServer } from './support/flaky-server.js';
import { request } from './support/http.js';
import { startTestServer, temporaryDir, type TestServer } from './support/server.js';

const VERSION = (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Waits are recorded, not slept: the tests see what the client would wait, at no cost. */
const FAST: HarvestSettings = {
  concurrency: 2, delayMs: 0, backoffMs: 1, maxAttempts: 8, maxRestarts: 3, timeoutMs: 10_000, userAgent: `heritage-api/${VERSION} harvest`,
};

async function harvestQuietly(url: string, settings: Partial<HarvestSettings> = {}) {
  const notes: string[] = [];
  const sleeps: number[] = [];
  const harvested = await harvestApi({
    url, statePath: null, resume: false, settings: { ...FAST, ...settings },
    reporter: { note: (m) => notes.push(m), progress: () => {} },
    sleep: async (ms) => void sleeps.push(ms),
  });
  const result = validateCatalogue(harvested.rebuilt.file);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.problems.slice(0, 3)));
  return { catalogue: result.catalogue, notes, sleeps, stats: harvested.client.stats };
}

function readCatalogue(file: string): Catalogue {
  const result = parseCatalogueBytes(fs.readFileSync(file));
  assert.ok(result.ok, 'the harvested file is a valid catalogue');
  return result.catalogue;
}

let dir: string;
let source: TestServer;
/** The test catalogue harvested straight from its server: what every other harvest must give. */
let reference: string;

before(async () => {
  dir = temporaryDir();
  source = await startTestServer({ catalogue: buildTestCatalogue() });
  reference = formatCatalogue((await harvestQuietly(`${source.origin}/api/v1/`)).catalogue);
});
after(async () => {
  await source.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('harvest: round trip through a second server', () => {
  let out: string;
  let harvested: Catalogue;
  let mirror: TestServer;
  before(async () => {
    out = path.join(dir, 'round-trip.json');
    const result = await runCli(['harvest', `${source.origin}/api/v1/`, '--out', out]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Harvested 45 features, 2 images \(2 published\), 1 documents \(1 published\), 1 media \(1 published\)/);
    harvested = readCatalogue(out);
    mirror = await startTestServer({ catalogue: harvested });
  });
  after(() => mirror.close());

  test('every page and record of both APIs is identical', async () => {
    for (const pageSize of [7, 100]) {
      const [original, copy] = await Promise.all([crawl(source, pageSize), crawl(mirror, pageSize)]);
      assert.ok(original.size > 50);
      assert.deepEqual(copy, original);
    }
  });

  test('the file is what the library harvest gives, and no state file is left', () => {
    assert.equal(fs.readFileSync(out, 'utf8'), reference);
    assert.equal(fs.existsSync(`${out}.harvest-state`), false);
  });

  test('unpublished records are not there and everything there is published', () => {
    assert.deepEqual(harvested.images.map((i) => i.id), [7, 9]);
    assert.deepEqual(harvested.documents.map((d) => d.id), [971]);
    assert.deepEqual(harvested.media.map((m) => m.id), [4]);
    assert.ok([...harvested.images, ...harvested.documents, ...harvested.media].every((r) => r.published));
  });

  test('media URLs become raw media-root paths again, awkward characters and all', () => {
    assert.deepEqual(harvested.images.map((i) => i.file), ['uploads/features/1/Osborn St 1975 (GLC).jpg', "uploads/features/5/St Mary's #2 & 100% Łódź.jpg"]);
    assert.deepEqual(harvested.categories.map((c) => c.thumbnail), ['categories/pubs.png', 'categories/industry & power.png']);
  });

  test('tags, search_str and b_number come from the nested forms; categories keep their order', () => {
    const original = buildTestCatalogue().features[0]!;
    const feature = harvested.features[0]!;
    assert.deepEqual([feature.tags, feature.search_str, feature.b_number], [original.tags, original.search_str, original.b_number]);
    assert.deepEqual(feature.categories, [4, 3]);
  });

  test('a feature never nested gets b_number null, tags [] and the default search_str', () => {
    const feature = harvested.features.find((f) => f.id === 7)!; // only an unpublished media record
    assert.deepEqual([feature.b_number, feature.tags, feature.search_str], [null, [], defaultSearchStr({ ...feature, b_number: null })]);
  });
});

describe('harvest --media', () => {
  const files: Record<string, string> = {
    'uploads/features/1/Osborn St 1975 (GLC).jpg': 'JPEG bytes of the street front',
    'uploads/features/1/hidden.jpg': 'unpublished',
    "uploads/features/5/St Mary's #2 & 100% Łódź.jpg": 'JPEG bytes of St Mary',
    'categories/pubs.png': 'PNG pubs',
    'categories/industry & power.png': 'PNG industry',
  };
  let root: string;
  let media: TestServer;
  let mirrorDir: string;
  let out: string;
  before(async () => {
    root = temporaryDir();
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    media = await startTestServer({ settings: { mediaRoot: root } });
    mirrorDir = path.join(dir, 'media-mirror');
    out = path.join(dir, 'media.json');
  });
  after(async () => {
    await media.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('downloads every image file and thumbnail, and nothing unpublished', async () => {
    const result = await runCli(['harvest', `${media.origin}/api/v1/`, '--out', out, '--media', mirrorDir]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /4 downloaded .*, 0 already there/);
    for (const [file, text] of Object.entries(files)) {
      const copy = path.join(mirrorDir, file);
      if (file.endsWith('hidden.jpg')) assert.equal(fs.existsSync(copy), false);
      else assert.equal(fs.readFileSync(copy, 'utf8'), text, file);
    }
  });

  test('serve --media-root on the mirror serves every file the original serves', async () => {
    const mirror = await startTestServer({ catalogue: readCatalogue(out), settings: { mediaRoot: mirrorDir } });
    try {
      const images = (await request(mirror.origin, '/api/v1/images/')).json().results;
      const features = (await request(mirror.origin, '/api/v1/features/?page_size=100')).json().results.features;
      const thumbnails = features.flatMap((f: any) => f.properties.categories.map((c: any) => c.thumbnail));
      const urls = [...new Set<string>([...images.map((i: any) => i.file), ...thumbnails])];
      assert.equal(urls.length, 4);
      for (const url of urls) {
        const { pathname } = new URL(url);
        const [copy, original] = await Promise.all([request(mirror.origin, pathname), request(media.origin, pathname)]);
        assert.equal(copy.status, 200, pathname);
        assert.equal(copy.text, original.text);
      }
    } finally {
      await mirror.close();
    }
  });

  test('files already there with the same size are kept; others are fetched again', async () => {
    const changed = path.join(mirrorDir, 'categories/pubs.png');
    fs.writeFileSync(changed, 'a different size');
    const result = await runCli(['harvest', `${media.origin}/api/v1/`, '--out', out, '--media', mirrorDir]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /1 downloaded .*, 3 already there/);
    assert.equal(fs.readFileSync(changed, 'utf8'), 'PNG pubs');
  });

  test('a file missing on the source is reported; the rest is still written', async () => {
    fs.renameSync(path.join(root, 'categories/pubs.png'), path.join(root, 'pubs.png.away'));
    fs.rmSync(mirrorDir, { recursive: true });
    try {
      const result = await runCli(['harvest', `${media.origin}/api/v1/`, '--out', out, '--media', mirrorDir]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /warning: 1 file is missing on the source \(404\/410\):\n {2}categories\/pubs\.png\n/);
      assert.equal(fs.existsSync(path.join(mirrorDir, 'uploads/features/1/Osborn St 1975 (GLC).jpg')), true);
    } finally {
      fs.renameSync(path.join(root, 'pubs.png.away'), path.join(root, 'categories/pubs.png'));
    }
  });
});

describe('harvest from a flaky source', () => {
  const fronts: FlakyServer[] = [];
  async function front(options: FlakyOptions): Promise<string> {
    const f = await startFlakyServer(source.origin, options);
    fronts.push(f);
    return `${f.origin}/api/v1/`;
  }
  const lastFront = () => fronts.at(-1)!;
  after(() => Promise.all(fronts.map((f) => f.close())));

  test('503s, a 429 with Retry-After, a dropped connection and a 502 are retried; the result is unchanged', async () => {
    const faults: Fault[] = [
      { path: /^\/api\/v1\/features\/\?page_size=100$/, times: 2, action: { status: 503 } },
      { path: /^\/api\/v1\/images\//, action: { status: 429, headers: { 'retry-after': '1' } } },
      { path: /^\/api\/v1\/documents\//, action: { drop: true } },
      { path: /^\/api\/v1\/media\//, action: { status: 502 } },
    ];
    const { catalogue, notes, sleeps, stats } = await harvestQuietly(await front({ faults }));
    assert.equal(formatCatalogue(catalogue), reference);
    assert.equal(stats.retries, 5);
    assert.equal(notes.filter((n) => /trying again/.test(n)).length, 4, notes.join('\n'));
    // The 429 asked for 1 s: the client waited that long (not its 1 ms backoff) before going on.
    assert.ok(sleeps.some((ms) => ms > 900 && ms <= 1000), `waits: ${sleeps.join(', ')}`);
    assert.ok(notes.some((n) => /429 Too Many Requests; the server asks to wait 1\.0 s/.test(n)));
    assert.ok(lastFront().maxInFlight <= FAST.concurrency);
  });

  test('a server that ignores page_size is walked at its own page size', async () => {
    const { catalogue } = await harvestQuietly(await front({ pageSize: null }));
    assert.equal(formatCatalogue(catalogue), reference);
    const featurePages = lastFront().seen.filter((r) => r.url.startsWith('/api/v1/features/'));
    assert.deepEqual(featurePages.map((r) => r.url), ['/api/v1/features/', '/api/v1/features/?page=2', '/api/v1/features/?page=3']);
  });

  test('a 4xx other than 429 stops the harvest with the URL and the answer', async () => {
    const url = await front({ faults: [{ path: /^\/api\/v1\/documents\//, action: { status: 403 } }] });
    await assert.rejects(harvestQuietly(url), /GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/documents\/\?page_size=100 answered 403 Forbidden \(\{"detail": "Try later\."\}\); stopping\./);
  });

  test('retries end: a source that keeps failing stops the harvest', async () => {
    const url = await front({ faults: [{ path: /^\/api\/v1\/media\//, times: Infinity, action: { status: 503 } }] });
    await assert.rejects(harvestQuietly(url, { maxAttempts: 3 }), /media\/\?page_size=100: still failing after 3 attempts \(last: 503 Service Unavailable\)/);
  });

  test('a count that changes mid-harvest starts that collection again, only that one', async () => {
    const bump: Fault = { path: /^\/api\/v1\/features\/\?page=3&/, action: { edit: (body) => body.count++ } };
    const { catalogue, notes } = await harvestQuietly(await front({ pageSize: '4', faults: [bump] }));
    assert.equal(formatCatalogue(catalogue), reference);
    assert.deepEqual(notes, ['features: the count went from 45 to 46; the source changed, starting the collection again.']);
    const firstPages = (c: string) => lastFront().seen.filter((r) => r.url === `/api/v1/${c}/?page_size=4`).length;
    assert.deepEqual([firstPages('features'), firstPages('images'), firstPages('documents'), firstPages('media')], [2, 1, 1, 1]);
  });

  test('a count that never settles fails clearly after the allowed restarts', async () => {
    const bump: Fault = { path: /^\/api\/v1\/features\/\?page=2&/, times: Infinity, action: { edit: (body) => body.count++ } };
    await assert.rejects(harvestQuietly(await front({ pageSize: '4', faults: [bump] }), { maxRestarts: 2 }), /features: the source kept changing while it was harvested \(the count went from 45 to 46\); gave up after 3 walks/);
  });

  test('collections that disagree (an image retitled between walks) are walked again', async () => {
    const retitle: Fault = { path: /^\/api\/v1\/images\//, action: { edit: (body) => (body.results[0].title = 'Retitled') } };
    const { catalogue, notes } = await harvestQuietly(await front({ faults: [retitle] }));
    assert.equal(formatCatalogue(catalogue), reference);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /^the collections disagree \(feature 1 titles images 7 "Street front, 1975", \/images\/ titles it "Retitled"\): the source changed/);
  });

  test('a source that disagrees with itself the same way twice is kept as served, with a warning', async () => {
    const retitle: Fault = { path: /^\/api\/v1\/images\//, times: Infinity, action: { edit: (body) => (body.results[0].title = 'Retitled') } };
    const { catalogue, notes } = await harvestQuietly(await front({ faults: [retitle] }));
    assert.equal(catalogue.images[0]!.title, 'Retitled');
    assert.match(notes.at(-1)!, /^warning: the source's collections disagree, the same way on two walks/);
  });

  test('an answer that is not JSON is refused at once, not retried', async () => {
    const html: Fault = { path: /^\/api\/v1\/$/, action: { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>Welcome</html>' } };
    await assert.rejects(harvestQuietly(await front({ faults: [html] })), /\/api\/v1\/ did not answer JSON \(Content-Type: text\/html\); is it the API root/);
    assert.equal(lastFront().seen.length, 1);
  });

  test('the command stops on a 4xx with one sentence, writes nothing and keeps what it fetched', async () => {
    const url = await front({ faults: [{ path: /^\/api\/v1\/documents\//, action: { status: 410 } }] });
    const out = path.join(dir, 'stopped.json');
    const result = await runCli(['harvest', url, '--out', out, '--concurrency', '1']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^heritage-api: harvest stopped: GET \S+\/documents\/\?page_size=100 answered 410 Gone .*; stopping\. What was fetched is kept in \S+stopped\.json\.harvest-state; add --resume to continue\.\n$/m);
    assert.equal(fs.existsSync(out), false);
    assert.equal(fs.existsSync(`${out}.harvest-state`), true);
  });

  test('a URL that is not an API root is refused in one sentence', async () => {
    await assert.rejects(harvestQuietly(`${source.origin}/api/v1/features/`), /is not an answer of this API: an API root lists links to features, images, documents and media/);
    await assert.rejects(harvestQuietly(`${source.origin}/api/v2/`), /answered 404 Not Found/);
  });
});

describe('harvest --resume after a kill', () => {
  let front: FlakyServer;
  let out: string;
  let stored: Set<string>;
  let resumed: Awaited<ReturnType<typeof runCli>>;
  let firstRun: number;
  const pageOf = (url: string) => {
    const u = new URL(url, 'http://x');
    return `${u.pathname.split('/')[3]}:${u.searchParams.get('page') ?? '1'}`;
  };

  before(async () => {
    // Two records a page: 23 pages of features. Request 12 is held, and the harvester killed while it waits.
    front = await startFlakyServer(source.origin, { pageSize: '2', holdFrom: 12 });
    out = path.join(dir, 'resumed.json');
    const args = ['harvest', `${front.origin}/api/v1/`, '--out', out, '--concurrency', '1', '--delay', '1', '--backoff-ms', '1'];
    const child = spawnCli(args);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = exitCode(child).then((code) => assert.fail(`harvest ended (${code}) before it could be killed: ${stderr}`));
    await Promise.race([front.waitForRequests(12), ended]);
    child.kill('SIGKILL');
    ended.catch(() => {});
    await exitCode(child);
    const lines = fs.readFileSync(`${out}.harvest-state`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    stored = new Set(lines.filter((l) => l.kind === 'page').map((l) => `${l.collection}:${l.page}`));
    fs.appendFileSync(`${out}.harvest-state`, '{"kind":"page","collection":"featu'); // a write cut short by the kill
    firstRun = front.seen.length;
    front.release();
    resumed = await runCli([...args, '--resume']);
  });
  after(() => front.close());

  test('the killed run left pages behind and no output file', () => {
    assert.equal(stored.size, 10, [...stored].join(' ')); // root + 10 pages answered, the 11th page held
    assert.ok(stored.has('features:7'));
  });

  test('the resumed run finishes with the same file as an uninterrupted harvest', () => {
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /Resuming the harvest kept in .*resumed\.json\.harvest-state/);
    assert.equal(fs.readFileSync(out, 'utf8'), reference);
    assert.equal(fs.existsSync(`${out}.harvest-state`), false);
  });

  test('it fetched again only the first page of each collection, to check nothing changed', () => {
    const again = front.seen.slice(firstRun).filter((r) => r.url.includes('page_size')).map((r) => pageOf(r.url));
    assert.deepEqual(again.filter((p) => stored.has(p)).sort(), ['documents:1', 'features:1', 'images:1', 'media:1']);
    assert.equal(again.length, 4 + 23 - 7);
  });

  test('every request says who is asking', () => {
    assert.ok(front.seen.every((r) => r.userAgent === `heritage-api/${VERSION} harvest`));
  });

  test('--resume needs an output file', async () => {
    const result = await runCli(['harvest', `${source.origin}/api/v1/`, '--resume']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--resume needs --out/);
  });
});

/** A loopback port where nothing listens: taken from the system, then let go. */
async function deadPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('harvest of an address where nothing listens', () => {
  test('the command fails at once, in one sentence, and writes nothing', async () => {
    const port = await deadPort();
    const out = path.join(dir, 'nothing-listens.json');
    // With the real backoff (1 s, doubling), 8 attempts would wait at least this long.
    const retrying = Array.from({ length: 7 }, (_, a) => Math.min(60_000, 1000 * 2 ** a) / 2).reduce((a, b) => a + b);
    const started = performance.now();
    const result = await runCli(['harvest', `http://127.0.0.1:${port}/api/v1/`, '--out', out]);
    const elapsed = performance.now() - started;
    assert.deepEqual({ code: result.code, stderr: result.stderr },
      { code: 1, stderr: `heritage-api: harvest stopped: nothing answers at http://127.0.0.1:${port}: connection refused.\n` });
    assert.ok(elapsed < Math.min(20_000, retrying / 3), `${elapsed} ms`);
    assert.deepEqual([fs.existsSync(out), fs.existsSync(`${out}.harvest-state`)], [false, false]);
  });

  test('no retry and no wait: the first refusal ends it', async () => {
    const port = await deadPort();
    const notes: string[] = [];
    const sleeps: number[] = [];
    const run = harvestApi({
      url: `http://127.0.0.1:${port}/api/v1/`, statePath: null, resume: false, settings: FAST,
      reporter: { note: (m) => notes.push(m), progress: () => {} }, sleep: async (ms) => void sleeps.push(ms),
    });
    await assert.rejects(run, (e: unknown) => e instanceof HarvestError && e.message === `nothing answers at http://127.0.0.1:${port}: connection refused.`);
    assert.deepEqual({ notes, sleeps }, { notes: [], sleeps: [] });
  });

  test('a server that answered before and then refuses is retried (a restart), until the attempts run out', async () => {
    const server = http.createServer((_request, response) => response.setHeader('content-type', 'application/json').end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
    const sleeps: number[] = [];
    const client = new HarvestClient({
      ...FAST, maxAttempts: 3, notify: () => {}, signal: new AbortController().signal, sleep: async (ms) => void sleeps.push(ms),
    });
    assert.deepEqual(await client.getJson(url), { ok: true });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await assert.rejects(client.getJson(url), (e: unknown) => e instanceof HarvestError && e.message === `GET ${url}: still failing after 3 attempts (last: ECONNREFUSED).`);
    assert.deepEqual({ retries: client.stats.retries, waits: sleeps.length }, { retries: 2, waits: 2 });
  });
});

describe('harvest: the pure rules', () => {
  test('Retry-After: seconds or an HTTP date', () => {
    const now = Date.parse('2024-05-01T12:00:00Z');
    const cases: [string | null, number | null][] = [
      ['120', 120_000], ['0', 0], [null, null], ['', null], ['soon', null],
      ['Wed, 01 May 2024 12:00:30 GMT', 30_000], ['Wed, 01 May 2024 11:00:00 GMT', 0],
    ];
    for (const [value, ms] of cases) assert.equal(parseRetryAfter(value, now), ms, String(value));
  });

  test('backoff doubles from its base, with jitter in the upper half, and is capped', () => {
    assert.deepEqual([0, 1, 3].map((a) => backoffMs(a, 1000, () => 0)), [500, 1000, 4000]);
    assert.equal(backoffMs(2, 1000, () => 1), 4000);
    assert.equal(backoffMs(30, 1000, () => 1), 60_000);
  });

  test('media URLs → media-root paths', () => {
    const bases = { served: 'https://example.org/media/', reachable: 'http://10.0.0.1/media/' };
    const cases: [string, string][] = [
      ['https://example.org/media/uploads/features/5/St%20Mary\'s%20%232%20%26%20100%25%20%C5%81%C3%B3d%C5%BA.jpg', "uploads/features/5/St Mary's #2 & 100% Łódź.jpg"],
      ['https://example.org/media/a+b.png', 'a+b.png'],
      ['https://cdn.example.net/site/media/uploads/x%20y.jpg', 'uploads/x y.jpg'],
      ['https://bucket.example.net/uploads/x.jpg', 'uploads/x.jpg'],
    ];
    for (const [url, mediaPath] of cases) assert.equal(mediaPathOf(url, bases), mediaPath);
    assert.throws(() => mediaPathOf('https://example.org/media/bad%E0%A4', bases), /bad percent-encoding/);
  });

  test('progress: done of total, pages, rate and time left', () => {
    assert.equal(formatProgress('Harvesting', 'records', { done: 1200, total: 8120, pages: 12, totalPages: 82 }, 2000, 200), 'Harvesting: 1,200/8,120 records, 12/82 pages, 500 records/s, about 14 s left');
    assert.equal(formatProgress('Harvesting', 'records', { done: 100, total: null, pages: 1, totalPages: null }, 0, 100), 'Harvesting: 100/? records, 1/? pages');
  });
});
