// npm test: every test file, in two passes, with one total at the end. Most files run three
// at a time. The few whose tests race signals, timeouts and bursts of connections against a
// server process (shutdown, workers, connection limits, live updates) run afterwards one at
// a time: with other files beside them on two cores they measured the machine, not the code.
import fs from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';

const TEST_DIR = path.resolve(import.meta.dirname, '..');
/** Files run alone, after the rest (paths below test/). */
const ALONE = ['shutdown.test.ts', 'postgres/shutdown.test.ts', 'workers.test.ts', 'limits.test.ts', 'live-update.test.ts', 'postgres/live-update.test.ts'];
const CONCURRENCY = 3;

interface Totals {
  pass: number;
  fail: number;
}

function testFiles(): string[] {
  const files = fs.readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts') && f.split(path.sep).length <= 2);
  return files.sort().map((f) => path.join(TEST_DIR, f));
}

/** One pass through node's runner, its TAP written out as it comes; the pass's own totals. */
async function pass(files: string[], concurrency: number): Promise<Totals> {
  const totals: Totals = { pass: 0, fail: 0 };
  const stream = run({ files, concurrency });
  // The runner's closing diagnostics ("pass 12", "fail 0") are the counts its summary prints.
  stream.on('test:diagnostic', (data: { nesting: number; message: string }) => {
    const count = /^(pass|fail) (\d+)$/.exec(data.message);
    if (data.nesting === 0 && count) totals[count[1] as keyof Totals] += Number(count[2]);
  });
  const report = stream.compose(tap);
  report.pipe(process.stdout, { end: false });
  await finished(report);
  return totals;
}

const all = testFiles();
const alone = ALONE.map((f) => path.join(TEST_DIR, f));
const missing = alone.filter((f) => !all.includes(f));
if (missing.length > 0) throw new Error(`run-tests.ts names files that do not exist: ${missing.join(', ')}`);
const together = await pass(all.filter((f) => !alone.includes(f)), CONCURRENCY);
const separately = await pass(alone, 1);
const passed = together.pass + separately.pass;
const failed = together.fail + separately.fail;
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
