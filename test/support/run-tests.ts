// `npm test` (run-tests fast) and `npm run test:slow` (run-tests slow): the test files of one
// of the two, as test-plan.ts declares them, each in up to three passes with one total at
// the end. The first runs four processes at a time: the longest files first, each alone (a
// pass lasts until its last file ends, and a long file started late would run on by itself
// at the end), then the rest several files to a process (test-groups.ts: a process costs
// more to start than many files' own work). Then the files that race signals, timeouts and
// bursts of connections against a server process, four at a time, the longest first: beside
// a busy pass on two cores they measured the machine, not the code; together they mostly
// wait. Last, one at a time, the ones that measure the server under load.
// Both run this file compiled (dist-test/, see compiled-tests.ts) without tsx, so the test
// processes it starts, which inherit its node options, load JavaScript; run through tsx it
// runs the .ts files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './root.js';
import { writeGroups } from './test-groups.js';
import { runPass, type Totals } from './test-pass.js';
import { planFiles } from './test-plan.js';

const TEST_DIR = path.resolve(import.meta.dirname, '..');
/** .ts, or .js when compiled. */
const EXTENSION = path.extname(import.meta.filename);
const CONCURRENCY = 4;
const ALONE_CONCURRENCY = 4;
/** How many of the longest files the summary names, to keep `npm test` short. */
const SHOWN_LONGEST = 12;

function testFiles(): string[] {
  const files = fs.readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(`.test${EXTENSION}`) && f.split(path.sep).length <= 2);
  return files.sort().map((f) => path.join(TEST_DIR, f));
}

const which = process.argv[2];
if (which !== 'fast' && which !== 'slow') throw new Error('run-tests: say which tests, fast (npm test) or slow (npm run test:slow)');
const command = which === 'fast' ? 'npm test' : 'npm run test:slow';
const plan = planFiles(testFiles(), TEST_DIR, EXTENSION)[which];
const groupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-api-test-groups-'));
const entries = writeGroups(plan.grouped, groupDir, TEST_DIR);
try {
  const started = Date.now();
  const passes: Totals[] = [];
  passes.push(await runPass([...plan.longest, ...entries], CONCURRENCY));
  if (plan.alone.length > 0) passes.push(await runPass(plan.alone, ALONE_CONCURRENCY));
  if (plan.isolated.length > 0) passes.push(await runPass(plan.isolated, 1));
  const passed = passes.reduce((n, p) => n + p.pass, 0);
  const failed = passes.reduce((n, p) => n + p.fail, 0);
  const broken = passes.reduce((n, p) => n + p.broken, 0);
  const failures = passes.flatMap((p) => p.failures);
  process.stdout.write(`\nlongest files (s):\n${longestFiles(passes).map(([file, s]) => `  ${s.toFixed(1).padStart(6)} ${file}`).join('\n')}\n`);
  if (failures.length > 0) process.stdout.write(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`\n${command}: ${plan.longest.length + plan.grouped.length + plan.alone.length + plan.isolated.length} files, tests: ${passed} passed, ${failed} failed${broken > 0 ? `; ${broken} files or suites failed outside any test` : ''}, ${seconds} s\n`);
  process.exitCode = failed > 0 || broken > 0 || passed === 0 ? 1 : 0;
} finally {
  fs.rmSync(groupDir, { recursive: true, force: true });
}

/** Each file's seconds (its top-level tests' and suites'; a group's suites are its files), the longest first. */
function longestFiles(passes: Totals[]): [string, number][] {
  const byFile = new Map<string, number>();
  for (const { file, name, seconds } of passes.flatMap((p) => p.seconds)) {
    // A file's own tests name their source (source maps), below test/ rather than dist-test/.
    const key = file.startsWith(groupDir) ? name : path.relative(path.join(ROOT, 'test'), file).replace(/\.(ts|js)$/, '');
    byFile.set(key, (byFile.get(key) ?? 0) + seconds);
  }
  return [...byFile].sort((a, b) => b[1] - a[1]).slice(0, SHOWN_LONGEST);
}
