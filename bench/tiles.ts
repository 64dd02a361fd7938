// Vector tiles for `npm run bench` (alone: `npm run bench -- --tiles`): at every zoom 0–22,
// distinct tiles over the catalogue's footprints, each rendered from the store (a server of
// its own with the answer cache off), timed one at a time: p50 / p99, and the tiles' sizes
// (median and largest, uncompressed).
import { spawn } from 'node:child_process';
import type { Catalogue } from '../src/catalogue/format.js';

const ZOOMS = Array.from({ length: 23 }, (_, z) => z);
/** Requests per zoom, cycling through its sampled tiles. */
const SAMPLES = 60;
/** Distinct tiles sampled per zoom: the most crowded, then evenly spread over the rest. */
const DISTINCT = 40;

interface DatabaseSettings {
  database: string;
  databaseSchema?: string;
}

export interface ZoomRow {
  z: number;
  tiles: number;
  p50: number;
  p99: number;
  medianBytes: number;
  largestBytes: number;
}

export async function timeTiles(entry: string, settings: DatabaseSettings, catalogue: Catalogue, log: (line: string) => void): Promise<ZoomRow[]> {
  const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
  const args = [entry, 'serve', '--db', settings.database, ...schema, '--port', '0', '--log-level', 'warn'];
  const child = spawn(process.execPath, args, { env: { ...process.env, CACHE_MAX_MB: '0' } });
  const rows: ZoomRow[] = [];
  try {
    const origin = await originOf(child);
    log(`vector tiles, rendered from the store (answer cache off), ${SAMPLES} requests per zoom over up to ${DISTINCT} distinct tiles holding footprints (the most crowded first)`);
    const sampled = ZOOMS.map((z) => sample(tilesOver(catalogue, z)));
    // One pass over every sampled tile first, as a server that has run a while: the stored
    // and the on-request tile paths both compiled. The answer cache is off, so each timed
    // request still renders or reads its tile; the first pass alone is timed as the cold start.
    const cold = await timeCold(origin, sampled.flat());
    log(`  after start: the first ${cold.count} tiles (one pass, every zoom), p50 ${cold.p50.toFixed(1)} ms, p99 ${cold.p99.toFixed(1)} ms, slowest ${cold.slowest.toFixed(1)} ms`);
    log('  zoom  tiles   p50 ms   p99 ms   median KB  largest KB');
    for (const z of ZOOMS) {
      const row = await timeZoom(origin, z, sampled[z]!);
      rows.push(row);
      log(`  z${String(z).padEnd(4)} ${String(row.tiles).padStart(5)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)} ${kb(row.medianBytes).padStart(11)} ${kb(row.largestBytes).padStart(11)}`);
    }
  } finally {
    child.kill('SIGTERM');
  }
  return rows;
}

const kb = (n: number) => (n / 1024).toFixed(1);

async function timeCold(origin: string, tiles: string[]): Promise<{ count: number; p50: number; p99: number; slowest: number }> {
  const times: number[] = [];
  for (const path of tiles) {
    const started = performance.now();
    await fetchTile(origin, path);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(times.length * q) - 1)]!;
  return { count: times.length, p50: at(0.5), p99: at(0.99), slowest: times[times.length - 1]! };
}

async function timeZoom(origin: string, z: number, tiles: string[]): Promise<ZoomRow> {
  const times: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const bytes = await fetchTile(origin, tiles[i % tiles.length]!);
    times.push(performance.now() - started);
    if (i < tiles.length) sizes.push(bytes);
  }
  times.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  const p50 = times[Math.floor(SAMPLES / 2)]!;
  const p99 = times[Math.ceil(SAMPLES * 0.99) - 1]!;
  return { z, tiles: tiles.length, p50, p99, medianBytes: sizes[Math.floor(sizes.length / 2)]!, largestBytes: sizes[sizes.length - 1]! };
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
