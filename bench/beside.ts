// Issue 48's costliest new requests beside cheap ones: on a kept database (scale 100 is
// where they cost most), `serve` as users run it (defaults), cheap cached answers loaded by
// wrk (1 thread, 8 connections, 10 s) alone, then again while 4 clients ask, each in a loop,
// for map views the cached answers cannot serve: `/map/matches.json` of a broad search in
// a new view near the bound (MAP_MATCHES_VIEW_FOOTPRINTS) each time, and OGC bbox pages of
// new views. The server is started afresh for the second phase, so its first map view
// also builds the catalogue version's box index (a job in batches, in a worker) meanwhile.
// The cheap answers' p50 and p99 with and without, and what the costly ones got.
//   tsx bench/beside.ts --db FILE|postgres://… [--schema S] [--seconds 10]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureWrk, runWrk, writeMixScript } from './wrk.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    schema: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    entry: { type: 'string', default: 'bin/heritage-api' },
  },
});
if (!values.db) throw new Error('--db is needed');
const seconds = Number(values.seconds);
const CHEAP = ['/api/v1/', '/api/v1/features/', '/api/v1/images/?page=2', '/api/v1/documents/?page=3', '/ogc/collections', '/ogc/collections/features/items'];
const COSTLY_CLIENTS = 4;

interface Serve {
  child: ChildProcess;
  origin: string;
}

async function startServe(): Promise<Serve> {
  const schema = values.schema ? ['--schema', values.schema] : [];
  const child = spawn(process.execPath, [values.entry!, 'serve', '--db', values.db!, ...schema, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const origin = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /at (http:\/\/[^/\s]+)\/api\/v1\//.exec(text);
      if (found?.[1]) resolve(found[1]);
    });
    child.on('exit', () => reject(new Error(`serve stopped: ${text}`)));
  });
  // The request log, as users run it, read and dropped.
  child.stdout!.resume();
  return { child, origin };
}

async function stop(serve: Serve): Promise<void> {
  const exited = new Promise((resolve) => serve.child.once('exit', resolve));
  serve.child.kill('SIGTERM');
  await exited;
}

/** A view of about `span` degrees across, somewhere in the middle half of the extent. */
function randomView(extent: readonly number[], span: number): string {
  const [w = 0, s = 0, e = 0, n = 0] = extent;
  const x = w + (e - w) * (0.25 + Math.random() / 2);
  const y = s + (n - s) * (0.25 + Math.random() / 2);
  return [x - span / 2, y - span / 5, x + span / 2, y + span / 5].map((v) => v.toFixed(6)).join(',');
}

/** Clients asking for costly answers in a loop until `until`; what they got, by kind and status. */
async function costlyLoops(origin: string, extent: readonly number[], until: () => boolean) {
  const got = new Map<string, { count: number; ms: number[] }>();
  const ask = async (kind: string, url: string) => {
    const started = performance.now();
    const answer = await fetch(origin + url);
    await answer.arrayBuffer();
    const key = `${kind} ${answer.status}`;
    const entry = got.get(key) ?? { count: 0, ms: [] };
    entry.count++;
    entry.ms.push(performance.now() - started);
    got.set(key, entry);
  };
  const loop = async (client: number) => {
    for (let i = 0; !until(); i++) {
      if ((i + client) % 2 === 0) await ask('matches, q=street, a zoom-17 view', `/map/matches.json?q=street&bbox=${randomView(extent, 0.0138)}`);
      else await ask('OGC bbox page, a zoom-17 view', `/ogc/collections/features/items?bbox=${randomView(extent, 0.0138)}`);
    }
  };
  await Promise.all(Array.from({ length: COSTLY_CLIENTS }, (_, client) => loop(client)));
  return got;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-beside-'));
ensureWrk(console.log);
const script = writeMixScript(dir, CHEAP);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

let serve = await startServe();
try {
  const config = (await (await fetch(`${serve.origin}/map/config.json`)).json()) as { extent: number[] | null };
  const extent = config.extent ?? [0, 0, 0, 0];
  for (const url of CHEAP) await (await fetch(serve.origin + url)).arrayBuffer();
  console.log(`load average at the start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const alone = await runWrk({ origin: serve.origin, script, seconds, connections: 8, core: null, serverPid: serve.child.pid! });
  console.log(`cheap answers alone: ${alone.rps} req/s, p50 ${alone.p50.toFixed(2)} ms, p99 ${alone.p99.toFixed(2)} ms, errors ${alone.errors}`);
  await stop(serve);

  serve = await startServe();
  for (const url of CHEAP) await (await fetch(serve.origin + url)).arrayBuffer();
  let done = false;
  const costly = costlyLoops(serve.origin, extent, () => done);
  const beside = await runWrk({ origin: serve.origin, script, seconds, connections: 8, core: null, serverPid: serve.child.pid! });
  done = true;
  const got = await costly;
  console.log(`cheap answers beside ${COSTLY_CLIENTS} clients of costly ones (a fresh server: its first view builds the box index): ${beside.rps} req/s, p50 ${beside.p50.toFixed(2)} ms, p99 ${beside.p99.toFixed(2)} ms, errors ${beside.errors}`);
  for (const [key, { count, ms }] of [...got].sort()) {
    const sorted = ms.sort((a, b) => a - b);
    console.log(`  ${key}: ${count}, p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p99 ${quantile(sorted, 0.99).toFixed(0)} ms`);
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await stop(serve);
  fs.rmSync(dir, { recursive: true, force: true });
}
