// npm test and npm run test:slow split the test files between them (test/support/test-plan.ts):
// every file runs in exactly one, and a list that names a missing file, or a file twice,
// stops both.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { planFiles, type PassOrder } from '../support/test-plan.js';

const TEST_DIR = path.resolve(import.meta.dirname, '..');
const EXTENSION = path.extname(import.meta.filename);

function testFiles(): string[] {
  return fs.readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(`.test${EXTENSION}`) && f.split(path.sep).length <= 2).map((f) => path.join(TEST_DIR, f));
}

const passFiles = (pass: { longest: string[]; grouped: string[]; alone: string[]; isolated: string[] }) => [...pass.longest, ...pass.grouped, ...pass.alone, ...pass.isolated];

test('every test file runs in exactly one of npm test and npm run test:slow', () => {
  const all = testFiles();
  const { fast, slow } = planFiles(all, TEST_DIR, EXTENSION);
  const runs = [...passFiles(fast), ...passFiles(slow)];
  assert.deepEqual([...runs].sort(), [...all].sort());
  assert.ok(passFiles(fast).includes(path.join(TEST_DIR, `unit/test-plan.test${EXTENSION}`)));
  assert.ok(passFiles(slow).length > 0);
});

const none: PassOrder = { longest: [], alone: [], isolated: [] };
const files = ['/t/a.test.ts', '/t/b.test.ts', '/t/c.test.ts'];

test('the slow files are the slow lists, the fast files all others', () => {
  const { fast, slow } = planFiles(files, '/t', '.ts', { fast: { ...none, longest: ['c.test'] }, slow: { ...none, isolated: ['a.test'] } });
  assert.deepEqual(fast, { longest: ['/t/c.test.ts'], grouped: ['/t/b.test.ts'], alone: [], isolated: [] });
  assert.deepEqual(slow, { longest: [], grouped: [], alone: [], isolated: ['/t/a.test.ts'] });
});

test('a file named in both passes, or twice in one, or not there, is refused', () => {
  assert.throws(() => planFiles(files, '/t', '.ts', { fast: { ...none, alone: ['a.test'] }, slow: { ...none, longest: ['a.test'] } }), /names these files twice: a\.test/);
  assert.throws(() => planFiles(files, '/t', '.ts', { fast: none, slow: { ...none, longest: ['b.test'], isolated: ['b.test'] } }), /twice: b\.test/);
  assert.throws(() => planFiles(files, '/t', '.ts', { fast: none, slow: { ...none, alone: ['gone.test'] } }), /do not exist: \/t\/gone\.test\.ts/);
});
