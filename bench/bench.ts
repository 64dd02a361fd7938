// npm run bench [-- --store sqlite|postgres --scale 1 --seconds 10 --connections 32 --quick]
// npm run bench -- --soak [--minutes 10 | --quick] [--store …] [--scale …]: bench/soak.ts
// Builds a demo catalogue, imports it into a temporary SQLite file or PostgreSQL schema
// (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test), starts the real server
// in its own process (pinned to core 0 with taskset when available) and loads it with
// autocannon (core 1) over a fixed URL mix. Loopback only, bounded in time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateDemoCatalogue } from '../src/catalogue/demo.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import { timeTiles } from './tiles.js';
import { runSoak } from './soak.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    quick: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '10' },
    store: { type: 'string', default: 'sqlite' },
  },
});
if (values.store !== 'sqlite' && values.store !== 'postgres') throw new Error('--store must be sqlite or postgres');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const scale = Number(values.scale);
const seconds = values.quick ? 3 : Number(values.seconds);
const connections = Number(values.connections);
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0 && os.cpus().length > 1;
const log = (line: string) => process.stderr.write(`${line}\n`);

async function prepareDatabase(dir: string) {
  const started = performance.now();
  const catalogue = generateDemoCatalogue({ scale, seed: 1 });
  const settings = values.store === 'postgres'
    ? { database: PG_URL, databaseSchema: `heritage_bench_${process.pid}` }
    : { database: path.join(dir, 'bench.db') };
  const store = await openStore(loadConfig(settings, {}), { create: true });
  await store.replaceCatalogue(catalogue);
  await store.close();
  log(`catalogue: scale ${scale}, ${catalogue.features.length} features, imported into ${values.store} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { settings, catalogue };
}

async function dropDatabase(settings: { databaseSchema?: string }) {
  if (!settings.databaseSchema) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${settings.databaseSchema} CASCADE`);
  await client.end();
}

/** The server runs compiled, as in production: built first so that it matches the sources. */
function buildServer(): string {
  const root = path.resolve(import.meta.dirname, '..');
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
  return path.join(root, 'bin/heritage-api');
}

function startServer(entry: string, settings: { database: string; databaseSchema?: string }): Promise<{ child: ChildProcess; origin: string }> {
  const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
  const args = [process.execPath, entry, 'serve', '--db', settings.database, ...schema, '--port', '0', '--log-level', 'warn'];
  return startProcess(args, /serving .* at (http:\/\/[^/\s]+)\/api\/v1\//);
}

function urlMix(catalogue: ReturnType<typeof generateDemoCatalogue>): string[] {
  const lastPage = Math.max(1, Math.ceil(catalogue.features.length / 20));
  const firstId = (list: { id: number; published?: boolean }[]) => list.find((r) => r.published !== false)?.id ?? 1;
  return [
    '/api/v1/features/',
    `/api/v1/features/?page=${Math.ceil(lastPage / 2)}`,
    '/api/v1/features/?page=last',
    '/api/v1/features/?page_size=100',
    '/api/v1/images/',
    '/api/v1/documents/',
    '/api/v1/media/',
    `/api/v1/features/${firstId(catalogue.features)}/`,
    `/api/v1/images/${firstId(catalogue.images)}/`,
    `/api/v1/documents/${firstId(catalogue.documents)}/`,
  ];
}

/** Finding things: a map view over a few streets, text queries, and both together. */
function filterUrls(catalogue: ReturnType<typeof generateDemoCatalogue>): string[] {
  const [lon, lat] = catalogue.features[Math.floor(catalogue.features.length / 3)]!.geometry.coordinates[0]![0]![0]!;
  const box = [lon! - 0.0015, lat! - 0.001, lon! + 0.0015, lat! + 0.001].map((n) => n.toFixed(6)).join(',');
  return [
    `/api/v1/features/?bbox=${box}`,
    `/api/v1/features/?bbox=${box}&page_size=100`,
    '/api/v1/features/?q=synagogue',
    '/api/v1/features/?q=fourn',
    '/api/v1/documents/?q=chapel+street',
    `/api/v1/images/?bbox=${box}`,
    `/api/v1/features/?q=street&bbox=${box}`,
    '/api/v1/features/?year_range=1800,1850&feature_type=WHITECHAPEL_BUILDING&page=last',
  ];
}

async function timeFilters(origin: string, urls: string[]) {
  log('finding things, rendered from the store (a distinct URL each time, so never cached), 20 requests: p50 / max');
  for (const url of urls) {
    for (let i = 0; i < 3; i++) await timeOne(origin, `${url}&warm=${i}`);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push(await timeOne(origin, `${url}&run=${i}`));
    times.sort((a, b) => a - b);
    const count = (await (await fetch(origin + url)).json()) as { count: number };
    log(`  ${times[10]!.toFixed(1)} ms / ${times[19]!.toFixed(1)} ms  ${url}  (count ${count.count})`);
  }
}

async function timeOne(origin: string, url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(origin + url);
  await response.arrayBuffer();
  return performance.now() - started;
}

function rssOf(pid: number | undefined): string {
  if (pid === undefined) return '?';
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return `${Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)} MB`;
}

/** Starts a process (on core 0 when taskset exists) and resolves with the origin it prints. */
function startProcess(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; origin: string }> {
  const child = hasTaskset ? spawn('taskset', ['-c', '0', ...args]) : spawn(args[0]!, args.slice(1));
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) resolve({ child, origin: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`exited (${code}): ${text}`)));
  });
}

/** The same URLs' exact answers, for the limit server. */
async function capture(origin: string, urls: string[], file: string): Promise<void> {
  const captured: Record<string, unknown> = {};
  for (const url of urls) {
    const response = await fetch(origin + url);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'vary', 'allow', 'etag', 'cache-control']) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    captured[url] = { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
  }
  fs.writeFileSync(file, JSON.stringify(captured));
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(origin: string, urls: string[]): Promise<Load> {
  const requests = urls.map((p) => ({ method: 'GET' as const, path: p }));
  await autocannon({ url: origin, connections, duration: 1, requests }); // warm-up
  const result = await autocannon({ url: origin, connections, duration: seconds, requests });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const median = async (origin: string, url: string, n = 21) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await timeOne(origin, url));
  return times.sort((a, b) => a - b)[Math.floor(n / 2)]!;
};

async function depth(origin: string) {
  const first = '/api/v1/features/?page_size=100';
  const last = '/api/v1/features/?page=last&page_size=100';
  const cold = [await timeOne(origin, first), await timeOne(origin, last)];
  const warm = [await median(origin, first), await median(origin, last)];
  log(`depth, page_size=100: cold first ${cold[0]!.toFixed(1)} ms, last ${cold[1]!.toFixed(1)} ms (ratio ${(cold[1]! / cold[0]!).toFixed(2)}); warm first ${warm[0]!.toFixed(2)} ms, last ${warm[1]!.toFixed(2)} ms (ratio ${(warm[1]! / warm[0]!).toFixed(2)})`);
}

async function coldRender(origin: string, catalogue: ReturnType<typeof generateDemoCatalogue>) {
  // Distinct URLs never asked before: every one is rendered from the store.
  const pages = Math.ceil(catalogue.features.length / 100);
  const times: number[] = [];
  for (let i = 0; i < 41; i++) times.push(await timeOne(origin, `/api/v1/features/?page_size=100&page=${1 + ((i * 7) % pages)}&cold=${i}`));
  times.sort((a, b) => a - b);
  log(`cold render, features page_size=100 (nothing cached): p50 ${times[20]!.toFixed(1)} ms`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-bench-'));
  const { settings, catalogue } = await prepareDatabase(dir);
  const entry = buildServer();
  const startedAt = performance.now();
  const server = await startServer(entry, settings);
  const startup = performance.now() - startedAt;
  if (values.soak) {
    // --soak replaces the measurements: soak.ts; --quick makes it 30 s.
    if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
    const soak = { origin: server.origin, pid: server.child.pid!, catalogue, connections, log, cacheMaxMb: loadConfig({}).cacheMaxBytes / 2 ** 20 };
    try {
      await runSoak({ ...soak, seconds: values.quick ? 30 : Number(values.minutes) * 60 });
    } finally {
      server.child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
      await dropDatabase(settings);
    }
    return;
  }
  let limit: { child: ChildProcess; origin: string } | undefined;
  try {
    const urls = urlMix(catalogue);
    const first = await timeOne(server.origin, '/api/v1/features/');
    log(`startup: listening after ${startup.toFixed(0)} ms, first 200 after ${(startup + first).toFixed(0)} ms (target < 1000)`);
    await depth(server.origin);
    await coldRender(server.origin, catalogue);
    await timeFilters(server.origin, filterUrls(catalogue));
    await timeTiles(entry, settings, catalogue, log);
    const capturedFile = path.join(dir, 'captured.json');
    await capture(server.origin, urls, capturedFile);
    const limitEntry = path.resolve(import.meta.dirname, 'limit-server.ts');
    limit = await startProcess([process.execPath, '--import', 'tsx', limitEntry, capturedFile], /at (http:\/\/[^/\s]+)\/api\/v1\//);
    log(`load: ${connections} connections, ${seconds} s measured after 1 s warm-up, ${urls.length} URLs${hasTaskset ? ', servers on core 0, load on core 1' : ''}`);
    if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
    const ours = await load(server.origin, urls);
    const rssOurs = rssOf(server.child.pid);
    const bare = await load(limit.origin, urls);
    const row = (name: string, r: Load, rss: string) => log(`${name.padEnd(12)} req/s ${String(r.rps).padStart(6)}  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  RSS ${rss}`);
    row('heritage-api', ours, rssOurs);
    row('limit', bare, rssOf(limit.child.pid));
    log(`ratios: throughput ${(ours.rps / bare.rps).toFixed(2)} of the limit (target >= 0.80), p99 ${(ours.p99 / Math.max(bare.p99, 1)).toFixed(2)}x the limit's (target <= 2)`);
  } finally {
    server.child.kill('SIGTERM');
    limit?.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    await dropDatabase(settings);
  }
}

await main();
