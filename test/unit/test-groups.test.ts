// Grouping test files into one process (test/support/test-groups.ts): the runs are even, and
// a grouped file's hooks run around its own tests alone, as in a process of its own; a file
// that fails to load fails its suite, the others still run, and a pass counts it
// (test/support/test-pass.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { PassThrough } from 'node:stream';
import { chunk, groupKey, writeGroups } from '../support/test-groups.js';
import { runPass } from '../support/test-pass.js';
import { temporaryDir } from '../support/temporary.js';

const dir = temporaryDir();
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('files are cut into runs of at most the size, as even as that allows, in order', () => {
  const files = Array.from({ length: 17 }, (_, i) => i);
  const runs = chunk(files, 8);
  assert.deepEqual(runs.map((r) => r.length), [6, 5, 6]);
  assert.deepEqual(runs.flat(), files);
  assert.deepEqual(chunk(files.slice(0, 8), 8), [files.slice(0, 8)]);
  assert.deepEqual(chunk([], 8), []);
});

/** node --test on an entry, as a process of its own: not as a child of this test's runner. */
function runEntry(entry: string) {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, ['--test', '--test-reporter=tap', entry], { encoding: 'utf8', env });
}

/** A test file that logs its hooks and tests, with a top-level await before them as many files have. */
function hookedFile(name: string): string {
  const file = path.join(dir, 'cases', `${name}.test.mjs`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, [
    "import { after, before, describe, test } from 'node:test';",
    'await Promise.resolve();',
    `before(() => console.log('${name} before'));`,
    `after(() => console.log('${name} after'));`,
    `test('${name} 1', () => console.log('${name} 1'));`,
    `describe('${name} suite', () => { test('${name} 2', () => console.log('${name} 2')); });`,
  ].join('\n'));
  return file;
}

test('a grouped file\'s top-level hooks run around its own tests, before the next file starts', () => {
  const files = [hookedFile('a'), hookedFile('b')];
  const [entry] = writeGroups(files, dir, dir);
  const run = runEntry(entry!);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const logged = run.stdout.split('\n').filter((line) => /^[ab] (before|after|1|2)$/.test(line.replace(/^# /, ''))).map((line) => line.replace(/^# /, ''));
  assert.deepEqual(logged, ['a before', 'a 1', 'a 2', 'a after', 'b before', 'b 1', 'b 2', 'b after']);
  assert.match(run.stdout, /^# pass 4$/m);
  // Each file's tests are in a suite named by its path below the test folder.
  assert.match(run.stdout, /^ok \d+ - cases\/a\.test\.mjs$/m);
});

test('a file that fails to load fails its own suite; the other files of the group still pass', () => {
  const broken = path.join(dir, 'cases', 'broken.test.mjs');
  fs.writeFileSync(broken, "throw new Error('broken at load');\n");
  const [entry] = writeGroups([hookedFile('c'), broken], path.join(dir, 'cases'), dir);
  const run = runEntry(entry!);
  assert.notEqual(run.status, 0);
  assert.match(run.stdout, /^not ok \d+ - cases\/broken\.test\.mjs$/m);
  assert.match(run.stdout, /broken at load/);
  assert.match(run.stdout, /^# pass 2$/m);
});

test('a pass counts a grouped file that failed to load, though no test of it failed', async () => {
  const broken = path.join(dir, 'cases', 'broken-too.test.mjs');
  fs.writeFileSync(broken, "throw new Error('broken at load');\n");
  const entries = writeGroups([hookedFile('e'), broken], path.join(dir, 'cases'), dir);
  assert.equal(entries.length, 1);
  const env = process.env.NODE_TEST_CONTEXT;
  delete process.env.NODE_TEST_CONTEXT;
  try {
    const totals = await runPass(entries, 1, new PassThrough().resume());
    assert.deepEqual({ ...totals, failures: totals.failures.length, seconds: totals.seconds.map((s) => s.name) }, { pass: 2, fail: 0, broken: 1, failures: 1, seconds: ['cases/e.test.mjs', 'cases/broken-too.test.mjs'] });
    assert.match(totals.failures[0]!, /broken-too\.test\.mjs.*broken at load/);
  } finally {
    if (env !== undefined) process.env.NODE_TEST_CONTEXT = env;
  }
});

test('a pass counts a test past its timeout as failed (the runner calls it cancelled)', async () => {
  const slow = path.join(dir, 'cases', 'slow.test.mjs');
  fs.writeFileSync(slow, "import { test } from 'node:test';\ntest('ends', () => {});\ntest('never ends', { timeout: 50 }, () => new Promise(() => {}));\n");
  const env = process.env.NODE_TEST_CONTEXT;
  delete process.env.NODE_TEST_CONTEXT;
  try {
    const totals = await runPass([slow], 1, new PassThrough().resume());
    assert.deepEqual({ ...totals, failures: totals.failures.length, seconds: totals.seconds.map((s) => s.name) }, { pass: 1, fail: 1, broken: 0, failures: 1, seconds: ['ends', 'never ends'] });
    // The end of npm test's output names it, with its file: a log's tail is often all one sees.
    assert.match(totals.failures[0]!, /slow\.test\.mjs › never ends: /);
  } finally {
    if (env !== undefined) process.env.NODE_TEST_CONTEXT = env;
  }
});

test('files that set the store to PostgreSQL for their process are grouped apart from their folder\'s others', () => {
  const twin = path.join(dir, 'postgres', 'twin.test.mjs');
  const own = path.join(dir, 'postgres', 'own.test.mjs');
  fs.mkdirSync(path.dirname(twin), { recursive: true });
  fs.writeFileSync(twin, "await onPostgres(() => import('../http/x.test.js'));\n");
  fs.writeFileSync(own, "import { test } from 'node:test';\n");
  assert.equal(groupKey(twin, dir), 'postgres-on-postgres');
  assert.equal(groupKey(own, dir), 'postgres');
  assert.equal(groupKey(hookedFile('d'), dir), 'cases');
  const top = path.join(dir, 'top.test.mjs');
  fs.writeFileSync(top, "import { test } from 'node:test';\n");
  assert.equal(groupKey(top, dir), 'top');
});
