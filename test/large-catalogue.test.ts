// Catalogues too big to hold in memory: `import` parses the file as a stream and loads it in
// one transaction as records arrive; `demo` and `export` write as streams. Memory is proven
// without timing: the command runs under a V8 heap too small for the file parsed whole.
// Each store imports the large file once (and refuses a broken copy of it), SQLite from the
// file and PostgreSQL from standard input: where the text comes from and where the records go
// are separate code (cli/catalogue-stream.ts, the store's load), so the two imports stream
// both sources and load both stores. A large import costs some 15 s of CPU; a second one per
// store proved nothing more.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDemoCatalogue } from '../src/demo/demo.js';
import type { Catalogue } from '../src/catalogue/format.js';
import { formatCatalogue } from '../src/catalogue/dump.js';
import { parseCatalogueBytes, validateCatalogue } from '../src/catalogue/validate.js';
import { PROBLEM_LIMIT } from '../src/catalogue/problem-list.js';
import { loadConfig, type RawSettings } from '../src/config.js';
import { startServer } from '../src/server.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { runCli } from './support/cli.js';
import { request } from './support/http.js';
import { createTestDatabase, postgresUnavailableReason, type StoreKind, type TestDatabase } from './support/stores.js';
import { temporaryDir } from './support/temporary.js';

const SCALE = 3;
/**
 * Enough for the streamed import and export (measured: both fit 24 MB, and need about 20 MB
 * whatever the scale), with room to spare: near its limit PostgreSQL's import spent half its
 * CPU collecting garbage (16 s at 28 MB, 10 s at 32). JSON.parse of the scale-3 file (12 MB)
 * needs more than 36 MB.
 */
const HEAP_MB = 32;
/**
 * The old space, and a young generation smaller than V8 gives that heap by default (8 MB
 * semi-spaces): the whole heap is smaller still, and PostgreSQL's import, which under the
 * default collected garbage for 4 s of its 10, takes 6.5 s.
 */
const HEAP_FLAGS = [`--max-old-space-size=${HEAP_MB}`, '--max-semi-space-size=8'];
const SMALL_HEAP = { NODE_OPTIONS: HEAP_FLAGS.join(' ') };

let dir: string;
let file: string;
let expected: Counts;
/** The SHA-256 of the demo catalogue generated in this process, written whole. */
let generatedSha: string;

type Counts = Record<'features' | 'images' | 'documents' | 'media', number>;

function publishedCounts(catalogue: Catalogue): Counts {
  const published = (list: { published: boolean }[]) => list.filter((r) => r.published).length;
  return {
    features: catalogue.features.length,
    images: published(catalogue.images),
    documents: published(catalogue.documents),
    media: published(catalogue.media),
  };
}

before(async () => {
  dir = temporaryDir();
  file = path.join(dir, 'big.json');
  const demo = await runCli(['demo', '--scale', String(SCALE), '--out', file]);
  assert.equal(demo.code, 0, demo.stderr);
  const catalogue = generateDemoCatalogue({ scale: SCALE, seed: 1 });
  expected = publishedCounts(catalogue);
  generatedSha = crypto.createHash('sha256').update(formatCatalogue(catalogue)).digest('hex');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const sha256 = (name: string) => crypto.createHash('sha256').update(fs.readFileSync(name)).digest('hex');

/** What a server on the database answers: each collection's count and the catalogue version. */
async function served(settings: RawSettings): Promise<{ counts: Record<string, number>; version: number }> {
  const server = await startServer(loadConfig({ ...settings, port: '0', host: '127.0.0.1', logLevel: 'silent' }, {}));
  try {
    const origin = new URL(server.address).origin;
    const counts: Record<string, number> = {};
    for (const collection of ['features', 'images', 'documents', 'media']) {
      counts[collection] = (await request(origin, `/api/v1/${collection}/?page_size=1`)).json().count;
    }
    const version = (await request(origin, '/readyz')).json().catalogue_version;
    return { counts, version };
  } finally {
    await server.close();
  }
}

/** The file with every image's copyright a string: one problem per image. */
function brokenCopy(): string {
  const broken = path.join(dir, 'broken.json');
  fs.writeFileSync(broken, fs.readFileSync(file, 'utf8').replace(/"copyright":(true|false)/g, '"copyright":"$1"'));
  return broken;
}

test('the file parsed whole does not fit the heap the commands are given', () => {
  const parse = spawnSync(process.execPath, [...HEAP_FLAGS, '-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`]);
  assert.notEqual(parse.status, 0, 'JSON.parse of the whole file fitted the heap: the file is too small to prove anything');
  assert.match(parse.stderr.toString(), /heap out of memory/);
});

/** Where an import reads the file from: its path, or standard input. */
type Source = 'file' | 'stdin';

async function storeSuite(kind: StoreKind, source: Source): Promise<void> {
  let db: TestDatabase;
  before(() => {
    db = createTestDatabase(kind);
  });
  after(() => db.drop());

  test(`imports ${source === 'file' ? 'the file' : 'it from standard input'} under that heap, and the server serves every record`, async () => {
    const result = source === 'file'
      ? await runCli(['import', file, ...db.args], { env: SMALL_HEAP })
      : await runCli(['import', '-', ...db.args], { input: fs.readFileSync(file), env: SMALL_HEAP });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`Imported ${expected.features} features`));
    assert.deepEqual((await served(db.settings)).counts, expected);
  });

  test('a bad file is refused with its problems by path, the first listed and the rest counted; the data stays', async () => {
    const before = await served(db.settings);
    const result = await runCli(['import', brokenCopy(), ...db.args], { env: SMALL_HEAP });
    assert.equal(result.code, 1, result.stderr);
    const total = Number(/is not a valid catalogue \((\d+) problems\)/.exec(result.stderr)?.[1]);
    assert.ok(total > PROBLEM_LIMIT, `${total} problems`);
    assert.match(result.stderr, /\n {2}images\[0\]\.copyright: must be a boolean, not "(true|false)"\n/);
    assert.match(result.stderr, new RegExp(`… and ${total - PROBLEM_LIMIT} more`));
    assert.equal(result.stderr.split('\n').filter((line) => line.includes('.copyright: ')).length, PROBLEM_LIMIT);
    assert.deepEqual(await served(db.settings), before);
  });

  test('export under that heap writes the very bytes that were imported', async () => {
    const exported = path.join(dir, `exported-${kind}.json`);
    const result = await runCli(['export', ...db.args, '--out', exported], { env: SMALL_HEAP });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(sha256(exported), sha256(file));
  });

  test(`a new import (a small catalogue, from ${source === 'file' ? 'standard input' : 'a file'}) replaces the large one whole and moves the version on`, async () => {
    const before = await served(db.settings);
    const small = buildTestCatalogue();
    const text = formatCatalogue(small);
    const smallFile = path.join(dir, `small-${kind}.json`);
    fs.writeFileSync(smallFile, text);
    const result = source === 'file'
      ? await runCli(['import', '-', ...db.args], { input: text })
      : await runCli(['import', smallFile, ...db.args]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await served(db.settings), { counts: publishedCounts(small), version: before.version + 1 });
  });
}

describe('SQLite', () => storeSuite('sqlite', 'file'));

describe('PostgreSQL', async () => {
  const reason = await postgresUnavailableReason();
  if (reason === null) return storeSuite('postgres', 'stdin');
  test(`on PostgreSQL: ${reason}`, { skip: process.env.HERITAGE_TEST_POSTGRES !== 'required' && reason }, () => assert.fail(reason));
});

test('demo, written as it generates, gives the bytes of the catalogue it generates', async () => {
  assert.equal(sha256(file), generatedSha);
});

describe('streamed checks on smaller files', () => {
  // More images than PROBLEM_LIMIT, and many of the parser's chunks: no need of the large file.
  const text = () => formatCatalogue(generateDemoCatalogue({ scale: 0.5, seed: 1 }));

  test('problems beyond the limit are counted, the first ones in file order listed', () => {
    const result = parseCatalogueBytes(Buffer.from(text().replace(/"copyright":(true|false)/g, '"copyright":0')));
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.problems.length, PROBLEM_LIMIT);
    assert.ok(result.total > PROBLEM_LIMIT);
    assert.deepEqual(result.problems.slice(0, 2).map((p) => p.path), ['images[0].copyright', 'images[1].copyright']);
  });

  test('a syntax error deep in a file names its line', () => {
    const lines = text().split('\n');
    const line = lines.findIndex((l) => l.includes('"b_name":')) + 1;
    lines[line - 1] = lines[line - 1]!.replace('"b_name":', '"b_name"');
    const result = parseCatalogueBytes(Buffer.from(lines.join('\n')));
    assert.deepEqual(result.ok ? [] : result.problems, [{ path: '$', message: `the file is not valid JSON: expected ':' (line ${line})` }]);
  });

  test('references into a list further down the file are judged at the end, in file order', () => {
    const c = JSON.parse(JSON.stringify(generateDemoCatalogue({ scale: 0.01, seed: 2 })));
    c.images[1].feature = 999_999_999;
    c.images[3].author = 999_999_999;
    const reordered = { format: c.format, media: c.media, images: c.images, documents: c.documents, features: c.features, sites: c.sites, categories: c.categories, authors: c.authors };
    const result = parseCatalogueBytes(Buffer.from(JSON.stringify(reordered)));
    assert.equal(result.ok, false);
    if (!result.ok) assert.deepEqual(result.problems.map((p) => p.path), ['images[1].feature', 'images[3].author']);
    const fixed = { ...reordered, images: generateDemoCatalogue({ scale: 0.01, seed: 2 }).images };
    assert.deepEqual(parseCatalogueBytes(Buffer.from(JSON.stringify(fixed))), validateCatalogue(JSON.parse(JSON.stringify(fixed))));
    assert.equal(parseCatalogueBytes(Buffer.from(JSON.stringify(fixed))).ok, true);
  });
});
