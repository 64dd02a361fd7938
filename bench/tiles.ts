// Vector tile latency for `npm run bench`: distinct tiles at zoom 12, 14 and 16 over the
// catalogue's extent, each rendered from the store (a server of its own with the answer
// cache off), timed one at a time: p50 / p99 and tile sizes.
import { spawn } from 'node:child_process';
import type { Catalogue } from '../src/catalogue/format.js';

const ZOOMS = [12, 14, 16];
const SAMPLES = 60;

interface DatabaseSettings {
  database: string;
  databaseSchema?: string;
}

export async function timeTiles(entry: string, settings: DatabaseSettings, catalogue: Catalogue, log: (line: string) => void): Promise<void> {
  const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
  const args = [entry, 'serve', '--db', settings.database, ...schema, '--port', '0', '--log-level', 'warn'];
  const child = spawn(process.execPath, args, { env: { ...process.env, CACHE_MAX_MB: '0' } });
  try {
    const origin = await originOf(child);
    log(`vector tiles, rendered from the store (answer cache off), ${SAMPLES} requests per zoom over the catalogue's extent: p50 / p99`);
    for (const z of ZOOMS) await timeZoom(origin, z, tilesOver(catalogue, z));
  } finally {
    child.kill('SIGTERM');
  }

  async function timeZoom(origin: string, z: number, tiles: string[]): Promise<void> {
    for (const path of tiles.slice(0, 3)) await fetchTile(origin, path); // warm-up
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
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    log(`  z${z}: ${times[Math.floor(SAMPLES / 2)]!.toFixed(1)} ms / ${times[Math.ceil(SAMPLES * 0.99) - 1]!.toFixed(1)} ms  (${tiles.length} distinct tiles, size median ${kb(sizes[Math.floor(sizes.length / 2)]!)}, largest ${kb(sizes[sizes.length - 1]!)})`);
  }
}

async function fetchTile(origin: string, path: string): Promise<number> {
  const response = await fetch(origin + path);
  if (response.status !== 200 && response.status !== 204) throw new Error(`${path}: ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
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
