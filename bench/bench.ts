// npm run bench [-- --store sqlite|postgres --scale 1 --seconds 10 --connections 32 --quick]
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

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    quick: { type: 'boolean', default: false },
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

function startServer(settings: { database: string; databaseSchema?: string }): Promise<{ child: ChildProcess; origin: string }> {
  const entry = path.resolve(import.meta.dirname, '../src/cli/bin.ts');
  const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
  const args = [process.execPath, '--import', 'tsx', entry, 'serve', '--db', settings.database, ...schema, '--port', '0', '--log-level', 'warn'];
  const child = hasTaskset ? spawn('taskset', ['-c', '0', ...args]) : spawn(args[0]!, args.slice(1));
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /at (http:\/\/[^/\s]+)\/api\/v1\//.exec(text);
      if (match) resolve({ child, origin: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${text}`)));
  });
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
  log('finding things (sequential, 20 requests each after 3 warm-up): p50 / max');
  for (const url of urls) {
    for (let i = 0; i < 3; i++) await timeOne(origin, url);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push(await timeOne(origin, url));
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

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-bench-'));
  const { settings, catalogue } = await prepareDatabase(dir);
  const { child, origin } = await startServer(settings);
  try {
    const urls = urlMix(catalogue);
    await timeFilters(origin, filterUrls(catalogue));
    log(`first request, features page_size=100: ${(await timeOne(origin, '/api/v1/features/?page_size=100')).toFixed(1)} ms`);
    log(`load: ${connections} connections, ${seconds} s, ${urls.length} URLs${hasTaskset ? ', server on core 0, load on core 1' : ''}`);
    if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
    const result = await autocannon({
      url: origin,
      connections,
      duration: seconds,
      requests: urls.map((p) => ({ method: 'GET', path: p })),
    });
    const errors = result.errors + result.timeouts + result.non2xx;
    log(`req/s ${Math.round(result.requests.average)}, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${errors}, server RSS ${rssOf(child.pid)}`);
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    await dropDatabase(settings);
  }
}

await main();
