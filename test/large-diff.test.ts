// `diff` of two catalogues at scale 10 (41 MB each) in bounded memory, proven without timing:
// the command runs under a V8 heap too small for either file parsed whole, or for the records
// it puts held as text (they are spooled to a temporary file), and its peak RSS is read from
// the child itself at exit. The change file is checked against one written out from the edits.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { catalogueChunks } from '../src/catalogue/dump.js';
import type { Catalogue } from '../src/catalogue/format.js';
import { generateDemoCatalogue } from '../src/demo/demo.js';
import { CLI_ENTRY, ensureCliBuilt } from './support/cli-entry.js';
import { temporaryDir } from './support/temporary.js';

const SCALE = 10;
/** Old space: less than the text of the records put, let alone a file parsed whole. */
const HEAP_MB = 24;
/** The old space, and a young generation smaller than V8's default for it (4 MB semi-spaces): the whole heap smaller still, and the diff's CPU 9.4 s to 6.7 (less copying of survivors). */
const HEAP_FLAGS = [`--max-old-space-size=${HEAP_MB}`, '--max-semi-space-size=4'];
/** Measured about 170 MB at scale 10 and 140 MB at scale 1: V8's young generation, code and buffers, not the files. */
const RSS_LIMIT_MB = 220;
/** The child's own peak RSS, written last on standard error (a preloaded module, so the command is unchanged). */
const REPORT_RSS = `data:text/javascript,process.on('exit',()=>process.stderr.write('max-rss-kb '+process.resourceUsage().maxRSS+'\\n'))`;

let dir: string;
let oldFile: string;
let newFile: string;
let expected: Record<string, unknown>;

async function writeCatalogue(file: string, catalogue: Catalogue): Promise<void> {
  const out = fs.createWriteStream(file);
  for (const chunk of catalogueChunks(catalogue)) if (!out.write(chunk)) await once(out, 'drain');
  await new Promise((resolve, reject) => out.end((error?: Error) => (error ? reject(error) : resolve(undefined))));
}

/** Every feature's address edited, every 7th image removed, 1,000 documents added, the documents written in reverse. */
function edit(catalogue: Catalogue): Record<string, unknown> {
  for (const feature of catalogue.features) feature.address += ' (checked)';
  const removed = catalogue.images.filter((_, i) => i % 7 === 0).map((image) => image.id);
  catalogue.images = catalogue.images.filter((_, i) => i % 7 !== 0);
  const firstNewId = Math.max(...catalogue.documents.map((d) => d.id)) + 1;
  const added = Array.from({ length: 1000 }, (_, i) => ({ ...catalogue.documents[i]!, id: firstNewId + i }));
  catalogue.documents = [...catalogue.documents, ...added].reverse();
  return {
    format: 'heritage-changes/1',
    features: { put: [...catalogue.features].sort((a, b) => a.id - b.id) },
    images: { remove: removed.sort((a, b) => a - b) },
    documents: { put: added },
  };
}

before(async () => {
  dir = temporaryDir();
  oldFile = path.join(dir, 'old.json');
  newFile = path.join(dir, 'new.json');
  const old = generateDemoCatalogue({ scale: SCALE, seed: 1 });
  await writeCatalogue(oldFile, old);
  // A copy to edit: generating the same catalogue again took 2 s of CPU.
  const next = structuredClone(old);
  expected = edit(next);
  await writeCatalogue(newFile, next);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function runDiff(args: string[]): Promise<{ code: number | null; stderr: string }> {
  ensureCliBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...HEAP_FLAGS, '--import', REPORT_RSS, CLI_ENTRY, 'diff', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('a file parsed whole does not fit the heap the command is given', () => {
  const parse = spawnSync(process.execPath, [...HEAP_FLAGS, '-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(newFile)}, 'utf8'))`]);
  assert.notEqual(parse.status, 0, 'JSON.parse of the whole file fitted the heap: the file is too small to prove anything');
  assert.match(parse.stderr.toString(), /heap out of memory/);
});

test(`diff at scale ${SCALE} under that heap: the expected change file, more text put than the heap holds, RSS under ${RSS_LIMIT_MB} MB`, async () => {
  const out = path.join(dir, 'changes.json');
  const result = await runDiff([oldFile, newFile, '-o', out]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /features: 40000 put; images: \d+ removed; documents: 1000 put/);
  assert.ok(fs.statSync(out).size > HEAP_MB * 1e6, `the change file is only ${fs.statSync(out).size} bytes`);
  const rssKb = Number(/max-rss-kb (\d+)/.exec(result.stderr)?.[1]);
  assert.ok(rssKb > 0 && rssKb < RSS_LIMIT_MB * 1024, `peak RSS ${rssKb} kB`);
  assert.deepEqual(JSON.parse(fs.readFileSync(out, 'utf8')), expected);
});
