// Vector tiles for `npm run bench` (alone: `npm run bench -- --tiles`): at every zoom 0–22,
// distinct tiles over the catalogue's footprints, each rendered from the store (a server of
// its own with the answer cache off), asked one at a time by wrk (one connection, cycling
// through the zoom's tiles for a few seconds: thousands of samples, so p99 is a percentile,
// not the slowest of a few dozen; a node client in this process, which holds the whole
// catalogue, added about 4 ms to every answer): p50 / p99, the server's CPU per tile (what a
// noisy machine distorts least), and the tiles' sizes (median and largest, uncompressed).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Catalogue } from '../src/catalogue/format.js';
import { ensureWrk, runWrk, writeMixScript } from './wrk.js';

const ZOOMS = Array.from({ length: 23 }, (_, z) => z);
/** How long each zoom's tiles are asked for, one at a time. */
const SECONDS_PER_ZOOM = 2;
/** Distinct tiles sampled per zoom: the most crowded, then evenly spread over the rest. */
const DISTINCT = 40;
/** wrk's core; the server has the other (a 2-core machine). */
const WRK_CORE = 1;

interface DatabaseSettings {
  database: string;
  databaseSchema?: string;
}

export interface ZoomRow {
  z: number;
  tiles: number;
  p50: number;
  p99: number;
  /** The server's CPU time per tile, ms. */
  cpuMs: number;
  medianBytes: number;
  largestBytes: number;
}

export async function timeTiles(entry: string, settings: DatabaseSettings, catalogue: Catalogue, log: (line: string) => void): Promise<ZoomRow[]> {
  const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
  const args = [entry, 'serve', '--db', settings.database, ...schema, '--port', '0', '--log-level', 'warn'];
  const child = spawn(process.execPath, args, { env: { ...process.env, CACHE_MAX_MB: '0' } });
  const rows: ZoomRow[] = [];
  ensureWrk(log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-tiles-wrk-'));
  try {
    const origin = await originOf(child);
    log(`vector tiles, rendered from the store (answer cache off), asked one at a time by wrk for ${SECONDS_PER_ZOOM} s per zoom over up to ${DISTINCT} distinct tiles holding footprints (the most crowded first)`);
    const sampled = ZOOMS.map((z) => sample(tilesOver(catalogue, z)));
    // One pass over every sampled tile first, as a server that has run a while: the stored
    // and the on-request tile paths both compiled. That pass alone is the cold start; it also
    // gives each tile's size.
    const cold = await timeCold(origin, sampled.flat());
    log(`  after start: the first ${cold.times.length} tiles (one pass, every zoom), p50 ${quantile(cold.times, 0.5).toFixed(1)} ms, p99 ${quantile(cold.times, 0.99).toFixed(1)} ms, slowest ${Math.max(...cold.times).toFixed(1)} ms`);
    log('  zoom  tiles   p50 ms   p99 ms   CPU ms   median KB  largest KB');
    for (const z of ZOOMS) {
      const tiles = sampled[z]!;
      const load = await runWrk({ origin, script: writeMixScript(dir, tiles), seconds: SECONDS_PER_ZOOM, connections: 1, core: WRK_CORE, serverPid: child.pid! });
      if (load.errors > 0) throw new Error(`zoom ${z}: ${load.errors} failed tile requests`);
      const sizes = tiles.map((t) => cold.sizes.get(t)!).sort((a, b) => a - b);
      const row = { z, tiles: tiles.length, p50: load.p50, p99: load.p99, cpuMs: load.cpuUs / 1000, medianBytes: sizes[Math.floor(sizes.length / 2)]!, largestBytes: sizes[sizes.length - 1]! };
      rows.push(row);
      log(`  z${String(z).padEnd(4)} ${String(row.tiles).padStart(5)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)} ${row.cpuMs.toFixed(1).padStart(8)} ${kb(row.medianBytes).padStart(11)} ${kb(row.largestBytes).padStart(11)}`);
    }
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const kb = (n: number) => (n / 1024).toFixed(1);

async function timeCold(origin: string, tiles: string[]): Promise<{ times: number[]; sizes: Map<string, number> }> {
  const times: number[] = [];
  const sizes = new Map<string, number>();
  for (const path of tiles) {
    const started = performance.now();
    sizes.set(path, await fetchTile(origin, path));
    times.push(performance.now() - started);
  }
  return { times, sizes };
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)]!;
}

async function fetchTile(origin: string, path: string): Promise<number> {
  const response = await fetch(origin + path);
  if (response.status !== 200 && response.status !== 204) throw new Error(`${path}: ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}

/** The most crowded tile, then tiles evenly spread over the list (most to least crowded). */
function sample(tiles: string[]): string[] {
  if (tiles.length <= DISTINCT) return tiles;
  return Array.from({ length: DISTINCT }, (_, i) => tiles[Math.floor((i * tiles.length) / DISTINCT)]!);
}

/** The tiles holding a footprint's first vertex, most crowded first. */
function tilesOver(catalogue: Catalogue, z: number): string[] {
  const counts = new Map<string, number>();
  for (const feature of catalogue.features) {
    const [lon, lat] = feature.geometry.coordinates[0]![0]![0]!;
    const n = 2 ** z;
    const x = Math.floor(((lon! + 180) / 360) * n);
    const rad = (lat! * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
    const path = `/tiles/features/${z}/${x}/${y}.mvt`;
    counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([path]) => path);
}

function originOf(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /serving .* at (http:\/\/[^/\s]+)\/api\/v1\//.exec(text);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`tile server exited (${code}): ${text}`)));
  });
}
