// The map's whole-catalogue answers (issue 48), uncached, and the matches of broad searches
// in a view, which replaced every match of the catalogue: `serve` with CACHE_MAX_MB=0 on a
// database already imported (a kept scale-100 catalogue takes most of an hour to import on
// a busy machine), each URL asked in turn so that the machine's changing load falls on all
// alike; p50 and p99 of n, after --warm rounds (2) untimed, and the server's CPU time per answer
// (all its threads, from /proc: steadier than the wall clock on a machine others load).
//   tsx bench/map-answers.ts --db FILE|postgres://… [--schema S] [--entry bin/heritage-api] [--n 20] [--warm 2]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    schema: { type: 'string' },
    entry: { type: 'string', default: 'bin/heritage-api' },
    n: { type: 'string', default: '20' },
    // Rounds of every URL not timed: at scale 100 the box index takes a fresh server some seconds to build.
    warm: { type: 'string', default: '2' },
  },
});
if (!values.db) throw new Error('--db is needed');

/**
 * Broad searches' matches in four views of the catalogue's middle (its extent from
 * /map/config.json), on a 1280 × 800 screen: zoom 19 and zoom 17 (a street's), zoom 15 (a
 * district's) and the whole world's; a view of more than MAP_MATCHES_VIEW_FOOTPRINTS is too
 * wide (no id listed, the work its count alone): zoom 15 at scale 10, zoom 17 at scale 100.
 */
function matchUrls(extent: readonly number[]): string[] {
  const [w = 0, s = 0, e = 0, n = 0] = extent;
  const [x, y] = [(w + e) / 2, (s + n) / 2];
  const around = (dx: number, dy: number) => [x - dx, y - dy, x + dx, y + dy].map((v) => v.toFixed(6)).join(',');
  const views = [around(0.0017, 0.00068), around(0.0069, 0.0027), around(0.0275, 0.0108), '-180,-90,180,90'];
  return ['year_range=1700', 'q=street'].flatMap((search) => views.map((bbox) => `/map/matches.json?${search}&bbox=${bbox}`));
}

const schema = values.schema ? ['--schema', values.schema] : [];
const child = spawn(process.execPath, [values.entry, 'serve', '--db', values.db, ...schema, '--port', '0'], {
  env: { ...process.env, CACHE_MAX_MB: '0' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const origin = await new Promise<string>((resolve, reject) => {
  let text = '';
  // `serve` names its address on standard error, its log lines go to standard output.
  child.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    const found = /at (http:\/\/[^/\s]+)\/api\/v1\//.exec(text);
    if (found?.[1]) resolve(found[1]);
  });
  child.on('exit', () => reject(new Error(`serve stopped: ${text}`)));
});
child.stdout.resume();

try {
  const config = (await (await fetch(`${origin}/map/config.json`)).json()) as { extent: number[] | null };
  const URLS = [...matchUrls(config.extent ?? [0, 0, 0, 0]), '/map/streets.json'];
  const n = Number(values.n);
  const times: number[][] = URLS.map(() => []);
  const cpu: number[] = URLS.map(() => 0);
  const refused: number[] = URLS.map(() => 0);
  let bytes: number[] = [];
  console.log(`load average at the start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const warm = Number(values.warm);
  for (let i = 0; i < n + warm; i++) {
    bytes = [];
    for (const [k, url] of URLS.entries()) {
      const [started, cpuBefore] = [performance.now(), cpuMs(child.pid)];
      const answer = await fetch(origin + url);
      const body = await answer.arrayBuffer();
      // A refusal (503: past its deadline on a loaded machine) is counted, not timed.
      if (answer.status !== 200) refused[k] = (refused[k] ?? 0) + 1;
      else if (i >= warm) {
        times[k]?.push(performance.now() - started);
        cpu[k] = (cpu[k] ?? 0) + cpuMs(child.pid) - cpuBefore;
      }
      bytes.push(body.byteLength);
    }
  }
  for (const [k, url] of URLS.entries()) {
    const sorted = (times[k] ?? []).sort((a, b) => a - b);
    const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(1);
    const answered = sorted.length;
    console.log(`${url}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, server CPU ${((cpu[k] ?? 0) / answered).toFixed(1)} ms per answer (${bytes[k]} bytes)${refused[k] ? `; ${refused[k]} refused` : ''}`);
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  child.kill('SIGTERM');
}

/** The process's user + system time (every thread), in ms: clock ticks of 10 ms. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
