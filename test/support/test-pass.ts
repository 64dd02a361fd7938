// One pass of node's test runner over some files, its TAP written out as it comes, and its
// totals: what run-tests.ts adds up into npm test's one line and exit code.
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';

export interface Totals {
  pass: number;
  fail: number;
  /** Suites that failed of themselves (a file that did not load, a hook that threw), not by a test's failure. */
  broken: number;
  /** Each failed test, one line: file, name and the error's first line (repeated at the end of npm test's output, where a log's tail shows it). */
  failures: string[];
  /** Seconds each top-level test or suite took, by its file (a group's suites are named by theirs: test-groups.ts). */
  seconds: { file: string; name: string; seconds: number }[];
}

export async function runPass(files: string[], concurrency: number, out: NodeJS.WritableStream = process.stdout): Promise<Totals> {
  const totals: Totals = { pass: 0, fail: 0, broken: 0, failures: [], seconds: [] };
  const stream = run({ files, concurrency });
  // The runner's closing diagnostics ("pass 12", "fail 0") are the counts its summary prints;
  // a test past its timeout is counted "cancelled", not "fail", and fails the pass too.
  stream.on('test:diagnostic', (data: { nesting: number; message: string }) => {
    const count = /^(pass|fail|cancelled) (\d+)$/.exec(data.message);
    if (data.nesting === 0 && count) totals[count[1] === 'pass' ? 'pass' : 'fail'] += Number(count[2]);
  });
  const timed = (data: { nesting: number; name: string; file?: string; details: { duration_ms?: number } }) => {
    if (data.nesting === 0 && data.file !== undefined) totals.seconds.push({ file: data.file, name: data.name, seconds: (data.details.duration_ms ?? 0) / 1000 });
  };
  stream.on('test:pass', timed);
  stream.on('test:fail', timed);
  // Those counts are of tests: a grouped file that fails to load fails its suite alone (test-groups.ts).
  stream.on('test:fail', (data: { name: string; file?: string; details: { type?: string; error?: { failureType?: string; message?: string; cause?: unknown } } }) => {
    const { type, error } = data.details;
    if (type === 'suite' && error?.failureType !== 'subtestsFailed') totals.broken++;
    if (error?.failureType !== 'subtestsFailed') totals.failures.push(failureLine(data.name, data.file, error));
  });
  const report = stream.compose(tap);
  report.pipe(out, { end: false });
  await finished(report);
  return totals;
}

function failureLine(name: string, file: string | undefined, error: { message?: string; cause?: unknown } | undefined): string {
  const cause = error?.cause instanceof Error ? error.cause.message : error?.message;
  const first = (cause ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
  return `${file ?? '?'} › ${name}: ${first.slice(0, 300)}`;
}
