// npm run bench [-- --store sqlite|postgres --scale 1 --seconds 10 --connections 32 --quick] [--keep] [--growth]
//   [--load-only] [--costs] [--profile] [--rounds N] [--loader wrk|autocannon]
// npm run bench -- --soak [--minutes 10 | --quick] [--store …] [--scale …]: bench/soak.ts
// npm run bench -- --replica [--scale …] [--rounds N]: a streaming replica's delay, bench/replication.ts
// npm run bench -- --tiles [--store …] [--scale …] [--layout L]: only the vector tiles, every zoom (bench/tiles.ts)
// npm run bench -- --apply [--store …] [--scale …] [--layout L] [--change TEXT]: `apply` end to end, bench/apply.ts
// (--change: only the changes whose name holds TEXT, such as "4 records")
// npm run bench -- --approve [--store …] [--scale …] [--rounds N]: a contribution approved to visible on two servers, bench/approve.ts
// npm run bench -- --edit [--store …] [--scale …] [--rounds N]: an editor's save (an address, a picture's credit) to visible on two servers, bench/edit.ts
// npm run bench -- --pictures [--store …] [--seconds …] [--rounds N]: a contributed picture served from the store, cached and
// uncached (CACHE_MAX_MB=0), and the same bytes as a file under MEDIA_ROOT, loaded by wrk (bench/pictures.ts)
// npm run bench -- --iiif [--store …] [--seconds …] [--rounds N]: a 24-megapixel picture's deep-zoom tiles (IIIF), uncached
// (IIIF_CACHE_MB=0) and cached, beside the same bytes from a static file server and from /media/, loaded by wrk (bench/iiif.ts)
// --layout demo|sized|dense|detailed: the demo's records with footprints drawn by another generator
// --catalogue FILE: a catalogue file instead of a generated one (bench/other-catalogues.ts writes two)
// (test/support/tile-catalogues.ts), imported afresh each run; default demo
// npm run bench -- --downloads [--store …] [--scale …] [--rounds N]: only the whole-layer downloads (bench/ogc.ts), N times, then once from a server with BASE_URL
// npm run bench -- --peers [--store …] [--seconds 5] [--rounds N] [--class bbox]: uncached req/s of each OGC request class (or those whose name holds --class) against MapServer 8.0 (bench/peers.ts)
// Builds a demo catalogue, imports it into a temporary SQLite file or PostgreSQL schema
// (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test), starts the real server
// as a user runs it (`serve`, default settings: request log lines on standard output, read
// and discarded here as a pipe; CORS, metrics, request ids, the rate limit with loopback
// exempt) in its own process pinned to core 0, and loads it with wrk (bench/wrk.ts) pinned
// to core 1 over a fixed URL mix. The limit server (bench/limit-server.ts) answers the same
// URLs with the same captured bytes and headers under the same load: the floor.
// --instructions: instead of the load, valgrind counts the instructions per cached answer of
// heritage-api with its defaults, with each feature off, and of the limit server (bench/
// instructions.ts): steadier than CPU time on a machine doing other work, though a heavily
// loaded one still disturbs single rounds. --rounds N rounds (at least 5); with --quick only the defaults and the limit.
// --costs: for each feature, two fresh servers, one with defaults and one with the feature
// off, under the same load --rounds times in alternating order (CPU µs per request saved,
// medians). --rounds N: N runs of each server, alternating, medians reported (for a
// machine shared with other work). --profile: the server runs under `node --cpu-prof`; its self and inclusive
// time by function under the load is printed (bench/profile-summary.ts). --loader autocannon: the old node load generator, for comparison only.
// --growth: only what grows with the catalogue (start-up, first and last pages, filters, RSS).
// --contributions: heritage-api serves with CONTRIBUTIONS=on (the contributors' pages beside the
// read path), to compare its ratios with a run without (issue 37: the read path unchanged).
// Loopback only, bounded in time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { summarise } from './profile-summary.js';
import { ensureWrk, runWrk, writeMixScript, type Load } from './wrk.js';
import { countInstructions, ensureValgrind, type CountTarget } from './instructions.js';
import pg from 'pg';
import { generateDemoCatalogue } from '../src/demo/demo.js';
import type { Catalogue } from '../src/catalogue/format.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import { replaceCatalogue } from '../src/store/apply/replace.js';
import { timeTiles } from './tiles.js';
import { runSoak } from './soak.js';
import { timeDownloads, timeOgc } from './ogc.js';
import { runReplicationBench } from './replication.js';
import { firstAndLastPages, keptDatabase } from './scale.js';
import { medianStartup } from './startup.js';
import { timeApply } from './apply.js';
import { timeApproval } from './approve.js';
import { timeEdits, type EditTargets } from './edit.js';
import { timePictures } from './pictures.js';
import { timeIiif } from './iiif.js';
import { ensurePeerTools, runPeers } from './peers.js';
import { peerIds } from './peer-urls.js';
import { freePort } from '../test/support/free-port.js';
import { LAYOUTS, LAYOUT_DESCRIPTIONS, generateLayoutCatalogue, type Layout } from '../test/support/tile-catalogues.js';

const { values } = parseOptions({
  options: {
    help: { type: 'boolean', short: 'h', default: false },
    scale: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    quick: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    tiles: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '10' },
    store: { type: 'string', default: 'sqlite' },
    'load-only': { type: 'boolean', default: false },
    costs: { type: 'boolean', default: false },
    loader: { type: 'string', default: 'wrk' },
    profile: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    instructions: { type: 'boolean', default: false },
    replica: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    growth: { type: 'boolean', default: false },
    apply: { type: 'boolean', default: false },
    downloads: { type: 'boolean', default: false },
    peers: { type: 'boolean', default: false },
    class: { type: 'string', default: '' },
    layout: { type: 'string', default: 'demo' },
    catalogue: { type: 'string' },
    change: { type: 'string', default: '' },
    contributions: { type: 'boolean', default: false },
    approve: { type: 'boolean', default: false },
    edit: { type: 'boolean', default: false },
    pictures: { type: 'boolean', default: false },
    iiif: { type: 'boolean', default: false },
  },
});
/** An unknown option is the user's typo: one line naming it and where the usage is, not a stack. */
function parseOptions<T extends Parameters<typeof parseArgs>[0]>(config: T) {
  try {
    return parseArgs(config);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message} (npm run bench -- --help lists the options)\n`);
    process.exit(2);
  }
}
if (values.help) {
  // The opening comment is the usage: printed as it stands, so that the two never differ.
  const lines = fs.readFileSync(import.meta.filename, 'utf8').split('\n');
  const usage = lines.slice(0, lines.findIndex((line) => !line.startsWith('//')));
  process.stdout.write(`${usage.map((line) => line.replace(/^\/\/ ?/, '')).join('\n')}\n`);
  process.exit(0);
}
if (values.store !== 'sqlite' && values.store !== 'postgres') throw new Error('--store must be sqlite or postgres');
if (values.loader !== 'wrk' && values.loader !== 'autocannon') throw new Error('--loader must be wrk or autocannon');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const scale = Number(values.scale);
if (!(LAYOUTS as readonly string[]).includes(String(values.layout))) throw new Error(`--layout must be one of ${LAYOUTS.join(', ')}`);
const layout = values.layout as Layout;
const seconds = values.quick ? 3 : Number(values.seconds);
const connections = Number(values.connections);
/** From scale 10 (or with --keep) the catalogue is imported once and kept between runs (bench/scale.ts). */
// Never for --apply, --approve, --edit or --pictures: they change the catalogue, which the kept one must not be.
const keep = !values.apply && !values.approve && !values.edit && !values.pictures && layout === 'demo' && values.catalogue === undefined && (values.keep || scale >= 10);
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0 && os.cpus().length > 1;
const log = (line: string) => process.stderr.write(`${line}\n`);

async function prepareDatabase(dir: string) {
  const started = performance.now();
  const catalogue = values.catalogue === undefined ? generateLayoutCatalogue({ scale, seed: 1, layout }) : readCatalogue(String(values.catalogue));
  if (keep) {
    const { settings } = keptDatabase(scale, values.store as 'sqlite' | 'postgres', PG_URL, log);
    return { settings, catalogue };
  }
  const settings = values.store === 'postgres'
    ? { database: PG_URL, databaseSchema: `heritage_bench_${process.pid}` }
    : { database: path.join(dir, 'bench.db') };
  const store = await openStore(loadConfig(settings, {}), { create: true });
  await replaceCatalogue(store, catalogue);
  await store.close();
  const which = values.catalogue === undefined ? `scale ${scale}, layout ${layout} (${LAYOUT_DESCRIPTIONS[layout]})` : values.catalogue;
  log(`catalogue: ${which}, ${catalogue.features.length} features, imported into ${values.store} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { settings, catalogue };
}

/** A catalogue file of the user's (checked by `import` as it is loaded). */
function readCatalogue(file: string): Catalogue {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue;
}

async function dropDatabase(settings: { databaseSchema?: string }) {
  if (!settings.databaseSchema || keep) return;
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

/** `serve` with its defaults (and the environment's settings, plus `env`): as a user runs it. */
function startServer(entry: string, settings: { database: string; databaseSchema?: string }, env: Record<string, string> = {}, nodeFlags: string[] = [], port = 0): Promise<Started> {
  const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
  const args = [process.execPath, ...nodeFlags, entry, 'serve', '--db', settings.database, ...schema, '--port', String(port)];
  return startProcess(args, /serving .* at (http:\/\/[^/\s]+)\/api\/v1\//, env);
}

/**
 * What a client of the API asks most: pages 1, 2, the middle and the last of each collection,
 * each collection's first page_size=100 page, and 11 detail records (one in the middle).
 */
function urlMix(catalogue: ReturnType<typeof generateDemoCatalogue>): string[] {
  const lists = [
    ['features', catalogue.features],
    ['images', catalogue.images],
    ['documents', catalogue.documents],
    ['media', catalogue.media],
  ] as const;
  const published = (list: readonly { id: number; published?: boolean }[]) => list.filter((r) => r.published !== false);
  const urls = new Set<string>();
  for (const [name, list] of lists) {
    const last = Math.max(1, Math.ceil(published(list).length / 20));
    for (const page of [1, 2, Math.ceil(last / 2), last]) if (page <= last) urls.add(page === 1 ? `/api/v1/${name}/` : `/api/v1/${name}/?page=${page}`);
  }
  for (const [name] of lists) urls.add(`/api/v1/${name}/?page_size=100`);
  // The OGC face's first pages, as GIS clients ask them (issue 18: served like any cached answer).
  for (const [name] of lists) urls.add(`/ogc/collections/${name}/items`);
  const details: [string, number][] = [['features', 4], ['images', 3], ['documents', 3], ['media', 1]];
  for (const [name, count] of details) {
    const records = published(lists.find(([n]) => n === name)![1]);
    for (let i = 0; i < count; i++) urls.add(`/api/v1/${name}/${records[Math.floor((i * records.length) / count)]!.id}/`);
  }
  return [...urls];
}

/** A map view over a few streets, around a footprint a third of the way through the catalogue. */
function mapBox(catalogue: ReturnType<typeof generateDemoCatalogue>): string {
  const [lon, lat] = catalogue.features[Math.floor(catalogue.features.length / 3)]!.geometry.coordinates[0]![0]![0]!;
  return [lon! - 0.0015, lat! - 0.001, lon! + 0.0015, lat! + 0.001].map((n) => n.toFixed(6)).join(',');
}

/** Finding things: a map view over a few streets, text queries, and both together; the map explorer's matches and labels. */
function filterUrls(catalogue: ReturnType<typeof generateDemoCatalogue>): string[] {
  const box = mapBox(catalogue);
  return [
    `/api/v1/features/?bbox=${box}`,
    `/api/v1/features/?bbox=${box}&page_size=100`,
    '/api/v1/features/?q=synagogue',
    '/api/v1/features/?q=fourn',
    '/api/v1/documents/?q=chapel+street',
    `/api/v1/images/?bbox=${box}`,
    `/api/v1/features/?q=street&bbox=${box}`,
    '/api/v1/features/?year_range=1800,1850&feature_type=WHITECHAPEL_BUILDING&page=last',
    // The map explorer's own: the ids of a broad search in a view (to outline them), labels of a view.
    `/map/matches.json?year_range=1700&bbox=${box}`,
    `/map/matches.json?q=street&bbox=${box}`,
    `/map/labels.json?bbox=${box}`,
    '/map/streets.json?all',
  ];
}

async function timeFilters(origin: string, urls: string[]) {
  log('finding things, rendered from the store (a distinct URL each time, so never cached), 20 requests: p50 / max');
  for (const url of urls) {
    for (let i = 0; i < 3; i++) await timeOne(origin, `${url}&warm=${i}`);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push(await timeOne(origin, `${url}&run=${i}`));
    times.sort((a, b) => a - b);
    const count = (await (await fetch(origin + url)).json()) as { count?: number };
    log(`  ${times[10]!.toFixed(1)} ms / ${times[19]!.toFixed(1)} ms  ${url}${count.count === undefined ? '' : `  (count ${count.count})`}`);
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

interface Started {
  child: ChildProcess;
  origin: string;
  /** Lines the process wrote to standard output (its request log), read and discarded. */
  lines(): number;
}

/** Starts a process (on core 0 when taskset exists) and resolves with the origin it prints. */
function startProcess(args: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<Started> {
  const options = { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
  const child = hasTaskset ? spawn('taskset', ['-c', '0', ...args], options) : spawn(args[0]!, args.slice(1), options);
  let lines = 0;
  // Standard output is a pipe, as under a process manager: read as fast as it comes, kept nowhere.
  child.stdout.on('data', (chunk: Buffer) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) resolve({ child, origin: match[1]!, lines: () => lines });
    });
    child.on('exit', (code) => reject(new Error(`exited (${code}): ${text}`)));
  });
}

/** The same URLs' exact answers, for the limit server. */
async function capture(origin: string, urls: string[], file: string): Promise<number> {
  const captured: Record<string, unknown> = {};
  for (const url of urls) {
    const response = await fetch(origin + url);
    // Every header but those node writes itself (the limit server's node writes them too).
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
    captured[url] = { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
  }
  fs.writeFileSync(file, JSON.stringify(captured));
  const sizes = Object.values(captured).map((c) => Buffer.from((c as { body: string }).body, 'base64').length);
  return sizes.reduce((a, b) => a + b, 0) / sizes.length;
}

async function load(server: Started, urls: string[], script: string): Promise<Load> {
  if (values.loader === 'autocannon') return autocannonLoad(server, urls);
  const options = { origin: server.origin, script, connections, core: hasTaskset ? 1 : null, serverPid: server.child.pid! };
  await runWrk({ ...options, seconds: 1 }); // warm-up: the JIT, V8's heap sizing
  return runWrk({ ...options, seconds });
}

/** The node load generator this bench used before wrk: it saturates near the limit server's rate. */
async function autocannonLoad(server: Started, urls: string[]): Promise<Load> {
  const requests = urls.map((p) => ({ method: 'GET' as const, path: p }));
  await autocannon({ url: server.origin, connections, duration: 1, requests }); // warm-up
  const result = await autocannon({ url: server.origin, connections, duration: seconds, requests });
  return {
    rps: Math.round(result.requests.average),
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuUs: NaN,
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

async function onlyTiles(entry: string, settings: { database: string; databaseSchema?: string }, catalogue: ReturnType<typeof generateDemoCatalogue>, dir: string) {
  try {
    await timeTiles(entry, settings, catalogue, log);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await dropDatabase(settings);
  }
}

async function main() {
  if (values.replica) return runReplicationBench({ primaryUrl: PG_URL, scale, rounds: Math.max(3, Number(values.rounds)), log });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-bench-'));
  const { settings, catalogue } = await prepareDatabase(dir);
  const entry = buildServer();
  if (values.tiles) return await onlyTiles(entry, settings, catalogue, dir);
  if (values.apply) {
    try {
      return await timeApply(entry, settings, catalogue, dir, log, String(values.change));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await dropDatabase(settings);
    }
  }
  if (values.approve) {
    const servers = [await startServer(entry, settings, { CONTRIBUTIONS: 'on' }), await startServer(entry, settings, { CONTRIBUTIONS: 'on' })];
    try {
      const middle = catalogue.features[Math.floor(catalogue.features.length / 2)]!.id;
      return await timeApproval(entry, settings, servers, middle, Math.max(3, Number(values.rounds)), log);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
      await dropDatabase(settings);
    }
  }
  if (values.edit) {
    const servers = [await startServer(entry, settings, { CONTRIBUTIONS: 'on' }), await startServer(entry, settings, { CONTRIBUTIONS: 'on' })];
    try {
      log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
      await timeEdits(entry, settings, servers, editTargets(catalogue), Math.max(3, Number(values.rounds)), log);
      return log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
      await dropDatabase(settings);
    }
  }
  if (values.pictures) return await pictures(entry, settings, catalogue, dir);
  if (values.iiif) return await iiif(entry, settings, catalogue, dir);
  const startedAt = performance.now();
  const profileDir = path.join(dir, 'profile');
  const server = await startServer(entry, settings, values.contributions ? { CONTRIBUTIONS: 'on' } : {}, values.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
  const startup = performance.now() - startedAt;
  if (values.downloads) {
    try {
      for (let round = 1; round <= Number(values.rounds); round++) {
        log(`downloads, round ${round}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
        await timeDownloads(server.origin, server.child.pid!, log);
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    // With BASE_URL the server knows every request's base URL, so it builds the GeoPackages ahead, at start.
    const port = await freePort();
    const based = await startServer(entry, settings, { BASE_URL: `http://127.0.0.1:${port}` }, [], port);
    try {
      log(`downloads from a server started with BASE_URL (GeoPackages built ahead at start-up); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
      await timeDownloads(based.origin, based.child.pid!, log);
    } finally {
      based.child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
      await dropDatabase(settings);
    }
    return;
  }
  if (values.peers) return await peers(entry, server, settings, catalogue, dir);
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
  let limit: Started | undefined;
  try {
    const urls = urlMix(catalogue);
    const first = await timeOne(server.origin, '/api/v1/features/');
    log(`startup: listening after ${startup.toFixed(0)} ms, first 200 after ${(startup + first).toFixed(0)} ms (target < 1000)`);
    if (!values['load-only']) {
      const cold = await medianStartup(['--db', settings.database, ...(settings.databaseSchema ? ['--schema', settings.databaseSchema] : [])], 5);
      log(`startup, spawn to first 200 on /api/v1/, median of 5 cold starts: ${cold.ms.toFixed(0)} ms (target < 1000), of which ${cold.cpuMs} ms CPU; listening at ${cold.listeningMs.toFixed(0)} ms; RSS then ${cold.rssMb.toFixed(0)} MB`);
      await depth(server.origin);
      await firstAndLastPages(server.origin, log);
      await coldRender(server.origin, catalogue);
      await timeFilters(server.origin, filterUrls(catalogue));
      if (values.growth) {
        log(`server RSS after the measurements above: ${rssOf(server.child.pid)} (target < 300 MB)`);
        return;
      }
      await timeOgc(server.origin, server.child.pid!, mapBox(catalogue), log);
      await timeTiles(entry, settings, catalogue, log);
      log(`server RSS after the measurements above: ${rssOf(server.child.pid)} (target < 300 MB)`);
    }
    const capturedFile = path.join(dir, 'captured.json');
    const averageBytes = await capture(server.origin, urls, capturedFile);
    const limitEntry = path.resolve(import.meta.dirname, 'limit-server.ts');
    if (values.instructions) return await instructionCosts(entry, settings, urls, [process.execPath, '--import', 'tsx', limitEntry, capturedFile], dir);
    limit = await startProcess([process.execPath, '--import', 'tsx', limitEntry, capturedFile], /at (http:\/\/[^/\s]+)\/api\/v1\//);
    if (values.loader === 'wrk') ensureWrk(log);
    const script = writeMixScript(dir, urls);
    log(`load: ${values.loader}${values.loader === 'wrk' ? ', 1 thread' : ''}, ${connections} keep-alive connections, ${seconds} s measured after 1 s warm-up; ${urls.length} URLs (${(averageBytes / 1024).toFixed(1)} KB per answer on average), every one cached after the first pass${hasTaskset ? '; servers on core 0, load on core 1' : ''}`);
    log(`heritage-api: \`serve\` with its default settings (request log lines on standard output, a pipe read here; CORS, metrics, request ids, rate limit with loopback exempt)${values.contributions ? ', and CONTRIBUTIONS=on' : ''}`);
    if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
    const linesBefore = server.lines();
    const oursRuns: Load[] = [];
    const bareRuns: Load[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      oursRuns.push(await load(server, urls, script));
      bareRuns.push(await load(limit, urls, script));
    }
    const [ours, bare] = [medianLoad(oursRuns), medianLoad(bareRuns)];
    const rssOurs = rssOf(server.child.pid);
    const logged = (await waitForLines(server, linesBefore + ours.requests)) - linesBefore;
    if (oursRuns.length > 1) {
      log(`medians of ${oursRuns.length} alternating runs each; heritage-api req/s ${oursRuns.map((r) => r.rps).join(', ')}; limit ${bareRuns.map((r) => r.rps).join(', ')}`);
      // Each round's pair ran back to back, so a machine slowed for a while slows both alike.
      const pairs = oursRuns.map((r, i) => r.rps / (bareRuns[i]?.rps ?? NaN));
      log(`each round's throughput against the limit's beside it: ${pairs.map((p) => p.toFixed(2)).join(', ')} (median ${[...pairs].sort((a, b) => a - b)[Math.floor(pairs.length / 2)]!.toFixed(2)})`);
    }
    const row = (name: string, r: Load, rss: string) => log(`${name.padEnd(12)} req/s ${String(r.rps).padStart(6)}  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  CPU ${r.cpuUs.toFixed(1)} µs/request  errors ${r.errors}  RSS ${rss}`);
    row('heritage-api', ours, rssOurs);
    row('limit', bare, rssOf(limit.child.pid));
    log(`log lines read from heritage-api's standard output: ${logged} for ${ours.requests} requests measured (plus the warm-ups')`);
    log(`ratios: throughput ${(ours.rps / bare.rps).toFixed(2)} of the limit (target >= 0.80), p99 ${(ours.p99 / bare.p99).toFixed(2)}x the limit's (target <= 2), CPU per request ${(ours.cpuUs / bare.cpuUs).toFixed(2)}x the limit's`);
    if (values.costs) await featureCosts(entry, settings, urls, script);
    if (values.profile) await printProfile(server, profileDir);
  } finally {
    server.child.kill('SIGTERM');
    limit?.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    await dropDatabase(settings);
  }
}

/** --edit: the middle building (and a small box around its footprint), and a published picture. */
function editTargets(catalogue: ReturnType<typeof generateDemoCatalogue>): EditTargets {
  const building = catalogue.features[Math.floor(catalogue.features.length / 2)]!;
  const points = building.geometry.coordinates.flat(2);
  const [lons, lats] = [points.map((p) => p[0]!), points.map((p) => p[1]!)];
  const margin = 0.0001;
  const box = [Math.min(...lons) - margin, Math.min(...lats) - margin, Math.max(...lons) + margin, Math.max(...lats) + margin].map((n) => n.toFixed(6)).join(',');
  const pictures = catalogue.images.filter((i) => i.published !== false);
  const picture = pictures[Math.floor(pictures.length / 2)];
  return { feature: { id: building.id, box }, image: picture === undefined ? null : { id: picture.id, feature: picture.feature } };
}

/** --pictures: bench/pictures.ts, its servers stopped and the catalogue dropped after. */
async function pictures(entry: string, settings: { database: string; databaseSchema?: string }, catalogue: ReturnType<typeof generateDemoCatalogue>, dir: string) {
  const servers: Started[] = [];
  try {
    ensureWrk(log);
    if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
    const start = async (env: Record<string, string>) => {
      const server = await startServer(entry, settings, env);
      servers.push(server);
      return server;
    };
    const featureId = catalogue.features[Math.floor(catalogue.features.length / 2)]!.id;
    await timePictures({ entry, settings, dir, featureId, start, seconds, connections, rounds: Number(values.rounds), core: hasTaskset ? 1 : null, log });
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    await dropDatabase(settings);
  }
}

/** --iiif: bench/iiif.ts over the middle published picture, its servers stopped and the catalogue dropped after. */
async function iiif(entry: string, settings: { database: string; databaseSchema?: string }, catalogue: ReturnType<typeof generateDemoCatalogue>, dir: string) {
  const servers: Started[] = [];
  try {
    ensureWrk(log);
    if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
    const started = async (server: Promise<Started>) => {
      servers.push(await server);
      return servers[servers.length - 1]!;
    };
    const staticEntry = path.resolve(import.meta.dirname, 'static-server.ts');
    const pictures = catalogue.images.filter((i) => i.published !== false);
    const image = pictures[Math.floor(pictures.length / 2)];
    if (image === undefined) throw new Error('--iiif: the catalogue has no published picture');
    await timeIiif({
      dir, image, seconds, connections, rounds: Number(values.rounds), core: hasTaskset ? 1 : null, log,
      start: (env) => started(startServer(entry, settings, env)),
      startStatic: (root) => started(startProcess([process.execPath, '--import', 'tsx', staticEntry, root], /at (http:\/\/[^/\s]+)\//)),
    });
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    await dropDatabase(settings);
  }
}

/** --peers: ours (defaults, and without its answer cache for the classes of one URL) against MapServer, bench/peers.ts. */
async function peers(entry: string, server: Started, settings: { database: string; databaseSchema?: string }, catalogue: ReturnType<typeof generateDemoCatalogue>, dir: string) {
  let uncached: Started | undefined;
  try {
    ensurePeerTools(log);
    uncached = await startServer(entry, settings, { CACHE_MAX_MB: '0' });
    const ids = peerIds(catalogue);
    log(`peers: heritage-api (${values.store}) against MapServer 8.0 (PostGIS), uncached, ${connections} connections, ${seconds} s per run after 1 s warm-up, ${values.rounds} round(s); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
    const pid = (started: Started) => ({ origin: started.origin, pid: started.child.pid! });
    await runPeers({
      ours: pid(server), oursUncached: pid(uncached), ids, pgUrl: PG_URL, dir, seconds, connections, rounds: Number(values.rounds),
      serverCore: hasTaskset ? 0 : null, loadCore: hasTaskset ? 1 : null, log, only: String(values.class),
    });
    if (values.profile) await printProfile(server, path.join(dir, 'profile'));
  } finally {
    server.child.kill('SIGTERM');
    uncached?.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    await dropDatabase(settings);
  }
}

/** The profile is written when the server exits (SIGTERM: a graceful stop). */
async function printProfile(server: Started, profileDir: string) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
  const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!;
  const kept = path.join(os.tmpdir(), `heritage-bench-${process.pid}.cpuprofile`);
  fs.copyFileSync(path.join(profileDir, file), kept);
  log(`CPU profile of heritage-api (start-up, first passes and the load), kept at ${kept}:`);
  log(summarise(JSON.parse(fs.readFileSync(kept, 'utf8')), 25));
}

/** Each figure's median over the runs; requests and errors summed. */
function medianLoad(runs: Load[]): Load {
  const median = (pick: (r: Load) => number) => runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const sum = (pick: (r: Load) => number) => runs.reduce((total, r) => total + pick(r), 0);
  return { rps: median((r) => r.rps), p50: median((r) => r.p50), p99: median((r) => r.p99), cpuUs: median((r) => r.cpuUs), requests: sum((r) => r.requests), errors: sum((r) => r.errors) };
}

/** The log lines of the measured requests reach the pipe a moment after their answers. */
async function waitForLines(server: Started, expected: number): Promise<number> {
  const deadline = performance.now() + 3000;
  while (server.lines() < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return server.lines();
}

/** Each feature switched off in turn: the CPU per request it costs when on (the default). */
const VARIANTS: [string, Record<string, string>][] = [
  ['request log (LOG_LEVEL=warn)', { LOG_LEVEL: 'warn' }],
  ['CORS (CORS_ORIGINS=off)', { CORS_ORIGINS: 'off' }],
  ['metrics (METRICS=off)', { METRICS: 'off' }],
  ['rate limit, loopback exempt (RATE_LIMIT=off)', { RATE_LIMIT: 'off' }],
  ['all four off', { LOG_LEVEL: 'warn', CORS_ORIGINS: 'off', METRICS: 'off', RATE_LIMIT: 'off' }],
];
/** And the rate limit counting every request (nobody exempt, a limit never reached). */
const COUNTED: Record<string, string> = { RATE_LIMIT: '999999999/second', RATE_LIMIT_EXEMPT: '' };

async function featureCosts(entry: string, settings: { database: string; databaseSchema?: string }, urls: string[], script: string) {
  const rounds = Number(values.rounds);
  log(`per-feature cost: for each feature, two fresh servers (defaults, and the feature off) under the same load (${seconds} s), ${rounds} run(s) each in alternating order; cost = median CPU µs/request with it on minus median without`);
  const started = async (env: Record<string, string>) => {
    const server = await startServer(entry, settings, env);
    for (const url of urls) await timeOne(server.origin, url);
    return server;
  };
  // Both servers fresh: a server that has already served minutes of load costs differently.
  const measure = async (env: Record<string, string>) => {
    const [on, off] = [await started({}), await started(env)];
    try {
      const runs = { on: [] as Load[], off: [] as Load[] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
        for (const which of order) runs[which].push(await load(which === 'on' ? on : off, urls, script));
      }
      return { on: medianLoad(runs.on), off: medianLoad(runs.off) };
    } finally {
      on.child.kill('SIGTERM');
      off.child.kill('SIGTERM');
    }
  };
  for (const [name, env] of VARIANTS) {
    const { on, off } = await measure(env);
    log(`  ${name.padEnd(46)} on ${on.cpuUs.toFixed(1).padStart(6)} / off ${off.cpuUs.toFixed(1).padStart(6)} µs/request, req/s ${on.rps} / ${off.rps}: the feature costs ${(on.cpuUs - off.cpuUs).toFixed(1)} µs/request`);
  }
  const { on, off: counted } = await measure(COUNTED);
  log(`  ${'rate limit counting every client (none exempt)'.padEnd(46)} exempt ${on.cpuUs.toFixed(1).padStart(6)} / counted ${counted.cpuUs.toFixed(1).padStart(6)} µs/request, req/s ${on.rps} / ${counted.rps}: ${(counted.cpuUs - on.cpuUs).toFixed(1)} µs/request more than loopback exempt`);
}

/** --instructions: each server of the cost table under callgrind, one after the other. */
async function instructionCosts(entry: string, settings: { database: string; databaseSchema?: string }, urls: string[], limitArgs: string[], dir: string) {
  ensureValgrind(log);
  const rounds = Math.max(5, Number(values.rounds));
  const options = { urls, dir, rounds, requests: 3000, warmUp: 12000 };
  const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
  const serve = (name: string, env: Record<string, string>): CountTarget => ({
    name, env, args: [process.execPath, entry, 'serve', '--db', settings.database, ...schema, '--port', '0'], listening: /serving .* at (http:\/\/[^/\s]+)\/api\/v1\//,
  });
  // --quick: the defaults against the limit only, without each feature's cost.
  const targets: CountTarget[] = [
    serve('defaults', {}),
    ...(values.quick ? [] : VARIANTS).map(([name, env]) => serve(name, env)),
    ...(values.quick ? [] : [serve('rate limit counting every client (none exempt)', COUNTED)]),
    { name: 'limit server', args: limitArgs, listening: /at (http:\/\/[^/\s]+)\/api\/v1\// },
  ];
  log(`instructions per cached answer (valgrind --tool=callgrind): ${options.warmUp} requests of warm-up, one counted round thrown away, then ${rounds} rounds of ${options.requests}; the least round, and every round`);
  let defaults = NaN;
  for (const target of targets) {
    const perRequest = await countInstructions(target, options);
    // Disturbances (a GC, the JIT's background work) only ever add: the least round is the steadiest figure.
    const least = Math.min(...perRequest);
    if (target.name === 'defaults') defaults = least;
    log(`  ${target.name.padEnd(46)} ${least.toFixed(0).padStart(7)} per request  [${perRequest.map((n) => n.toFixed(0)).join(', ')}]  ${compared(target.name, least, defaults)}`);
  }
}

function compared(name: string, count: number, defaults: number): string {
  if (name === 'defaults') return '';
  if (name === 'limit server') return `defaults / limit = ${(defaults / count).toFixed(2)}`;
  if (name.startsWith('rate limit counting')) return `this − defaults = ${(count - defaults).toFixed(0)}`;
  return `defaults − this = ${(defaults - count).toFixed(0)} (what is off costs)`;
}

await main();
