// npm test: every test file, in two passes, with one total at the end. The first runs four
// processes at a time: the longest files first, each alone (a pass lasts until its last
// file ends, and a long file started late would run on by itself at the end), then the rest
// several files to a process (test-groups.ts: a process costs more to start than many
// files' own work; 43 s of CPU less over the HTTP suites and unit tests). The few whose
// tests race signals, timeouts and bursts of connections against a server process
// (shutdown, workers, connection limits, live updates, the replica, issue 45's picture races
// and crashes) run afterwards, four at
// a time, the longest first: beside the busy first pass on two cores they measured the
// machine, not the code; together they mostly wait (on signals, polls and timeouts), which
// one at a time wasted. shutdown.test is two files (its bursts apart) so that neither
// bounds the pass alone.
// npm test runs this file compiled (dist-test/, see compiled-tests.ts) without tsx, so the
// test processes it starts, which inherit its node options, load JavaScript; run through tsx
// it runs the .ts files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeGroups } from './test-groups.js';
import { runPass } from './test-pass.js';

const TEST_DIR = path.resolve(import.meta.dirname, '..');
/** .ts, or .js when compiled. */
const EXTENSION = path.extname(import.meta.filename);
/**
 * Files run alone, after the rest, the longest first (paths below test/, without the
 * extension).
 */
const ALONE = ['postgres/picture-crashes.test', 'http/picture-crashes.test', 'postgres/replica.test', 'postgres/shutdown.test', 'shutdown-bursts.test', 'shutdown.test', 'postgres/live-apply.test', 'workers.test',
  'live-apply.test', 'live-update.test', 'postgres/live-update.test', 'postgres/picture-races.test', 'http/picture-races.test', 'limits.test'];
/**
 * Started first, in this order: the files that take longest alone (large-catalogue some
 * 45 s, large-diff about as long, tile-budget's three catalogues on two stores some 90 s, cli 30 s, down to 7 s); the rest follow in name order, most of them under 3 s.
 */
const LONGEST = [
  'large-catalogue.test', 'large-diff.test', 'postgres/tile-budget.test', 'cli.test', 'browser/map.test', 'postgres/browser-map.test', 'import-refusals.test', 'harvest.test', 'browser/docs.test',
  'postgres/tiles.test', 'postgres/tiles-agree.test', 'postgres/text-query-cost.test', 'postgres/rate-limit.test', 'catalogue-text.test', 'demo.test',
];
/**
 * Files that measure latency under attack (issue 33; issue 37's upload crowd), a picture's time to another server (issue 45), and the site's pages under Lighthouse
 * and axe (issue 36: Chromium busy for minutes): each in a pass of its own, one at a time,
 * last, so they measure the server and not the files beside them, and do not slow those.
 */
const ISOLATED = [
  'postgres/isolation.test', 'isolation.test', 'postgres/upload-crowd.test', 'upload-crowd.test', 'postgres/upload-siege.test', 'upload-siege.test', 'browser/site-quality.test', 'postgres/site-quality.test',
  'http/picture-hosts.test', 'postgres/picture-hosts.test', 'postgres/picture-replica.test',
];
const CONCURRENCY = 4;
const ALONE_CONCURRENCY = 4;

function testFiles(): string[] {
  const files = fs.readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(`.test${EXTENSION}`) && f.split(path.sep).length <= 2);
  return files.sort().map((f) => path.join(TEST_DIR, f));
}

const all = testFiles();
const named = (names: string[]) => names.map((f) => path.join(TEST_DIR, f + EXTENSION));
const alone = named(ALONE);
const isolated = named(ISOLATED);
const longest = named(LONGEST);
const missing = [...alone, ...longest, ...isolated].filter((f) => !all.includes(f));
if (missing.length > 0) throw new Error(`run-tests.ts names files that do not exist: ${missing.join(', ')}`);
const rest = all.filter((f) => !alone.includes(f) && !longest.includes(f) && !isolated.includes(f));
const groupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-api-test-groups-'));
const entries = writeGroups(rest, groupDir, TEST_DIR);
try {
  const together = await runPass([...longest, ...entries], CONCURRENCY);
  const separately = await runPass(alone, ALONE_CONCURRENCY);
  const measured = await runPass(isolated, 1);
  const passes = [together, separately, measured];
  const passed = passes.reduce((n, p) => n + p.pass, 0);
  const failed = passes.reduce((n, p) => n + p.fail, 0);
  const broken = passes.reduce((n, p) => n + p.broken, 0);
  const failures = passes.flatMap((p) => p.failures);
  if (failures.length > 0) process.stdout.write(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
  process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${broken > 0 ? `; ${broken} files or suites failed outside any test` : ''}\n`);
  process.exitCode = failed > 0 || broken > 0 || passed === 0 ? 1 : 0;
} finally {
  fs.rmSync(groupDir, { recursive: true, force: true });
}
