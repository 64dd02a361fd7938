// npm run bench -- --peers: heritage-api against MapServer 8.0 (issue 34, point 7), uncached,
// request class by request class. MapServer is Debian's cgi-mapserver as FastCGI behind
// lighttpd (both installed with apt-get when missing), with its OGC API – Features on, serving
// the same footprints from PostGIS: our own GeoPackage download copied into a table with
// ogr2ogr. Loopback only; MapServer's processes on the servers' core, wrk on the other.
// Uncached: MapServer keeps no answers; ours are distinct URLs (bench/peer-urls.ts), so its
// answer cache never answers one; the classes of one URL (first page, collections,
// collection) are asked of a second server of ours started with CACHE_MAX_MB=0.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureDebianPackage } from './apt.js';
import { ensureWrk, runWrk, writeMixScript, type Load } from './wrk.js';
import { PEER_CLASSES, type PeerClass, type PeerIds } from './peer-urls.js';
import { freePort } from '../test/support/free-port.js';

type Log = (line: string) => void;

const LIGHTTPD = '/usr/sbin/lighttpd';
const MAPSERV = '/usr/lib/cgi-bin/mapserv';
/** MapServer's FastCGI processes: enough to overlap its waits on PostgreSQL, on one core. */
const MAPSERV_PROCESSES = 4;
/** URLs per wrk script (a Lua table): more than either server answers in a run of seconds. */
const MAX_URLS = 40_000;

export interface PeerServer {
  origin: string;
  pid: number;
}

export interface PeerOptions {
  /** Ours with its defaults, and ours with CACHE_MAX_MB=0 (the classes of one URL). */
  ours: PeerServer;
  oursUncached: PeerServer;
  ids: PeerIds;
  pgUrl: string;
  dir: string;
  seconds: number;
  connections: number;
  rounds: number;
  /** The core the servers run on and the core wrk runs on, or null without taskset. */
  serverCore: number | null;
  loadCore: number | null;
  log: Log;
  /** Only the classes whose name holds this (all when empty). */
  only: string;
}

export function ensurePeerTools(log: Log): void {
  ensureWrk(log);
  ensureDebianPackage('lighttpd', () => fs.existsSync(LIGHTTPD), log);
  ensureDebianPackage('cgi-mapserver', () => fs.existsSync(MAPSERV), log);
  ensureDebianPackage('gdal-bin', () => spawnSync('ogr2ogr', ['--version']).status === 0, log);
}

/** Our GeoPackage download of the footprints, copied into a PostGIS table of its own schema. */
async function copyToPostgis(origin: string, pgUrl: string, schema: string, dir: string): Promise<void> {
  const gpkg = path.join(dir, 'features.gpkg');
  const response = await fetch(`${origin}/ogc/collections/features/items?f=gpkg`);
  if (response.status !== 200) throw new Error(`the GeoPackage download answered ${response.status}`);
  fs.writeFileSync(gpkg, Buffer.from(await response.arrayBuffer()));
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const copied = spawnSync('ogr2ogr', ['-f', 'PostgreSQL', `PG:${keywords(pgUrl)}`, gpkg, 'features', '-nln', `${schema}.features`, '-lco', 'GEOMETRY_NAME=geom', '-lco', 'FID=fid'], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`ogr2ogr into PostGIS failed: ${copied.stderr}`);
}

/** libpq's keyword form: GDAL appends its application_name to a connection string, which breaks a URL. */
function keywords(pgUrl: string): string {
  const url = new URL(pgUrl);
  const pairs: [string, string][] = [['host', url.hostname], ['port', url.port || '5432'], ['dbname', url.pathname.slice(1)], ['user', decodeURIComponent(url.username)], ['password', decodeURIComponent(url.password)]];
  return pairs.filter(([, value]) => value !== '').map(([key, value]) => `${key}=${value}`).join(' ');
}

export async function dropPeerSchema(pgUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

/** The mapfile: one layer, the footprints by their id, OGC API – Features on, its links on this origin. */
function mapfile(pgUrl: string, schema: string, origin: string): string {
  return `MAP
  NAME "heritage"
  EXTENT -180 -90 180 90
  PROJECTION "init=epsg:4326" END
  WEB
    METADATA
      "oga_enable_request" "*"
      "oga_onlineresource" "${origin}/mapserv/heritage/ogcapi"
      "oga_html_template_directory" "/usr/share/mapserver/ogcapi/templates/html-plain/"
      "ows_title" "heritage"
      "ows_srs" "EPSG:4326"
    END
  END
  LAYER
    NAME "features"
    TYPE POLYGON
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "${keywords(pgUrl)}"
    # Its connection kept from request to request of a FastCGI process, as deployed.
    PROCESSING "CLOSE_CONNECTION=DEFER"
    DATA "geom from ${schema}.features using unique id using srid=4326"
    PROJECTION "init=epsg:4326" END
    TEMPLATE "void"
    METADATA
      "ows_title" "features"
      "gml_include_items" "all"
      "gml_featureid" "id"
      "gml_types" "auto"
    END
  END
END
`;
}

/** lighttpd on loopback, mapserv as its FastCGI back end; MapServer's config file names the map. */
function lighttpdConfig(dir: string, port: number): string {
  return `server.document-root = "${dir}"
server.port = ${port}
server.bind = "127.0.0.1"
server.modules = ("mod_fastcgi")
server.errorlog = "${dir}/lighttpd.log"
fastcgi.server = ( "/mapserv" => ((
  "socket" => "${dir}/mapserv.sock",
  "bin-path" => "${MAPSERV}",
  "bin-environment" => ( "MAPSERVER_CONFIG_FILE" => "${dir}/mapserver.conf" ),
  "check-local" => "disable",
  "max-procs" => ${MAPSERV_PROCESSES}
)))
`;
}

interface MapServer {
  child: ChildProcess;
  origin: string;
}

async function startMapServer(options: PeerOptions, schema: string): Promise<MapServer> {
  const dir = path.join(options.dir, 'mapserver');
  fs.mkdirSync(dir);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  fs.writeFileSync(path.join(dir, 'heritage.map'), mapfile(options.pgUrl, schema, origin));
  fs.writeFileSync(path.join(dir, 'mapserver.conf'), `CONFIG\n  MAPS\n    heritage "${dir}/heritage.map"\n  END\nEND\n`);
  fs.writeFileSync(path.join(dir, 'lighttpd.conf'), lighttpdConfig(dir, port));
  const args = [LIGHTTPD, '-D', '-f', path.join(dir, 'lighttpd.conf')];
  const command = options.serverCore === null ? args : ['taskset', '-c', String(options.serverCore), ...args];
  const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
  const url = `${origin}/mapserv/heritage/ogcapi/collections?f=json`;
  // A cold machine's first mapserv processes take seconds to load their libraries.
  for (let tries = 0; tries < 600; tries++) {
    // MapServer's own errors are 200s of HTML.
    const type = await fetch(url).then((r) => (r.status === 200 ? r.headers.get('content-type') : null), () => null);
    if (type?.startsWith('application/json')) return { child, origin };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  throw new Error(`MapServer did not answer ${url}: see ${dir}/lighttpd.log`);
}

/** lighttpd and its mapserv children. */
function treePids(pid: number): number[] {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
  return [pid, ...children.flatMap(treePids)];
}

/** One sample URL per class on both servers: a 200 with something in it, so that neither is timed answering errors. */
async function checkSamples(options: PeerOptions, theirs: string): Promise<void> {
  for (const peerClass of PEER_CLASSES) {
    const ours = peerClass.oneUrl ? options.oursUncached : options.ours;
    for (const url of [ours.origin + peerClass.ours(options.ids, 0), theirs + peerClass.theirs(options.ids, 0)]) {
      const response = await fetch(url);
      const text = await response.text();
      if (response.status !== 200 || !peerClass.answered(parsed(text))) throw new Error(`${peerClass.name}: ${url} answered ${response.status}: ${text.slice(-300)}`);
    }
  }
  options.log('every class checked on both servers: a 200 with something in it');
}

function parsed(text: string): object {
  try {
    return JSON.parse(text) as object;
  } catch {
    return {};
  }
}

interface Row {
  peerClass: PeerClass;
  ours: Load;
  theirs: Load;
}

/** Warm-up URLs and measured URLs are disjoint: the measured ones are all new to our cache. */
async function measure(peerClass: PeerClass, target: 'ours' | 'theirs', server: PeerServer, options: PeerOptions, round: number): Promise<Load> {
  const count = peerClass.distinct(options.ids);
  const make = (from: number, n: number) => Array.from({ length: n }, (_, i) => peerClass[target](options.ids, (from + i) % count));
  // Each round of each server starts at its own place in the list: nothing it asks was asked before.
  const slice = Math.min(MAX_URLS, Math.floor(count / (2 * options.rounds)));
  const start = (2 * round + (target === 'ours' ? 0 : 1)) * slice;
  const warm = writeMixScript(fs.mkdtempSync(path.join(options.dir, 'warm-')), make(start, 500));
  const measured = writeMixScript(fs.mkdtempSync(path.join(options.dir, 'load-')), make(start + 500, slice - 500), { firstError: true });
  // MapServer's CPU is spread over lighttpd and its mapserv processes; counted around the measured run only, as ours.
  const serverPid = target === 'theirs' ? treePids(server.pid) : server.pid;
  const base = { origin: server.origin, connections: options.connections, core: options.loadCore, serverPid };
  await runWrk({ ...base, script: warm, seconds: 1 });
  await drained(server.origin + peerClass[target](options.ids, start));
  const answered = await runWrk({ ...base, script: measured, seconds: options.seconds });
  // Answers only: a refusal (a 503 of a full line, MapServer's errors) is no request served.
  const load = { ...answered, rps: Math.round((answered.rps * (answered.requests - answered.errors)) / answered.requests) };
  if (answered.firstError !== undefined) options.log(`  (${peerClass.name}, ${target}: ${answered.errors} errors, the first: ${answered.firstError})`);
  if (!peerClass.oneUrl && load.requests > slice - 500) options.log(`  (${peerClass.name}, ${target}: ${load.requests} requests for ${slice - 500} distinct URLs: the last ones were repeats; shorten --seconds)`);
  return load;
}

/**
 * wrk leaves the warm-up's last requests in the server's queues: one more, asked alone, is
 * answered once they are done; a 503 means our costly-read line is still full of them (the
 * measured run would start refused, and its refusals would keep the line full), so ask again.
 */
async function drained(url: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const status = await fetch(url).then(async (r) => (await r.arrayBuffer(), r.status));
    if (status !== 503) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} still answered 503 after 10 s: the warm-up's requests did not drain`);
}

export async function runPeers(options: PeerOptions): Promise<void> {
  const { log } = options;
  const schema = `mapserver_bench_${process.pid}`;
  log(`copying our GeoPackage download into PostGIS (${schema}.features) with ogr2ogr`);
  await copyToPostgis(options.ours.origin, options.pgUrl, schema, options.dir);
  const mapServer = await startMapServer(options, schema);
  try {
    await checkSamples(options, mapServer.origin);
    const theirs: PeerServer = { origin: mapServer.origin, pid: mapServer.child.pid! };
    const rows: Row[] = [];
    const classes = PEER_CLASSES.filter((c) => c.name.includes(options.only));
    if (classes.length === 0) throw new Error(`--class ${options.only}: no request class's name holds it (${PEER_CLASSES.map((c) => c.name).join('; ')})`);
    for (const peerClass of classes) {
      const oursServer = peerClass.oneUrl ? options.oursUncached : options.ours;
      const runs = { ours: [] as Load[], theirs: [] as Load[] };
      for (let round = 0; round < options.rounds; round++) {
        runs.ours.push(await measure(peerClass, 'ours', oursServer, options, round));
        runs.theirs.push(await measure(peerClass, 'theirs', theirs, options, round));
      }
      const row = { peerClass, ours: median(runs.ours), theirs: median(runs.theirs) };
      rows.push(row);
      log(`  ${peerClass.name.padEnd(22)} heritage-api ${String(row.ours.rps).padStart(6)} req/s (errors ${row.ours.errors})  MapServer ${String(row.theirs.rps).padStart(5)} req/s (errors ${row.theirs.errors})  ratio ${(row.ours.rps / row.theirs.rps).toFixed(2)}  [${runs.ours.map((r) => r.rps).join(', ')} / ${runs.theirs.map((r) => r.rps).join(', ')}]`);
    }
    log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    log(table(rows));
  } finally {
    mapServer.child.kill('SIGTERM');
    await dropPeerSchema(options.pgUrl, schema);
  }
}

function median(runs: Load[]): Load {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The Markdown table BENCHMARKS.md takes. */
function table(rows: Row[]): string {
  const lines = ['| request class | heritage-api req/s | CPU µs/req | MapServer req/s | CPU µs/req | ratio |', '|---|---:|---:|---:|---:|---:|'];
  for (const { peerClass, ours, theirs } of rows) {
    lines.push(`| ${peerClass.name} | ${ours.rps} | ${ours.cpuUs.toFixed(0)} | ${theirs.rps} | ${theirs.cpuUs.toFixed(0)} | ${(ours.rps / theirs.rps).toFixed(2)} |`);
  }
  return lines.join('\n');
}
