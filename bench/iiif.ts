// `npm run bench -- --iiif [--store …] [--seconds 10] [--connections 32] [--rounds N]`: deep-zoom
// tiles of a large picture (issue 49). A 6,000 × 4,000 photograph-like JPEG (24 megapixels,
// test/support/large-picture.ts) is written under MEDIA_ROOT as the file of one of the
// catalogue's published pictures; the URL list is every tile of its scale factors 1, 2 and 4
// as OpenSeadragon asks for them from its info.json (512-pixel tiles: region x,y,w,h and size
// w,h, rotation 0, default.jpg: 96 + 24 + 6 tiles), and wrk cycles through it:
// - uncached: a `serve` with IIIF_CACHE_MB=0, so that every tile is rendered (cut, scaled and
//   encoded by the render process from the picture it keeps decoded);
// - cached: a `serve` with its default settings, after one pass over every tile;
// - static files: each tile's bytes from that pass written to a folder under the same path,
//   served by a bare node:http file server (bench/static-server.ts), pinned as the servers are;
// - /media/: the same files under the media root, served by the cached server's own /media/.
// Every `serve` runs with its default settings (request log lines on standard output, a pipe
// read and discarded) and the MEDIA_ROOT; each round asks the four in turn. The render
// process's CPU is counted with its server's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { IIIF_PATHS } from '../src/pages/paths.js';
import { largePhotograph } from '../test/support/large-picture.js';
import { runWrk, writeMixScript, type Load } from './wrk.js';

interface Served {
  origin: string;
  child: { pid?: number };
}

/** A deep-zoom viewer's requests at once (OpenSeadragon's default imageLoaderLimit is unbounded, browsers keep six connections a host). */
const VIEWER_CONNECTIONS = 8;

export interface IiifBench {
  dir: string;
  /** A published picture of the catalogue, whose file the large picture becomes. */
  image: { id: number; file: string };
  /** bench.ts's `serve` with its defaults and `env`. */
  start(env: Record<string, string>): Promise<Served>;
  /** The static file server over `root`, started as the servers are. */
  startStatic(root: string): Promise<Served>;
  seconds: number;
  connections: number;
  rounds: number;
  /** The core wrk runs on, or null. */
  core: number | null;
  log(line: string): void;
}

/** The picture's size. */
const PICTURE = { width: 6000, height: 4000 };
/** The zoom levels timed: the picture at full size, half and a quarter, where a viewer spends its time. */
const SCALE_FACTORS = [1, 2, 4];

/** What the bench reads of info.json (Image API 3.0 §5). */
interface ImageInfo {
  id: string;
  width: number;
  height: number;
  tiles: { width: number; height?: number; scaleFactors: number[] }[];
}

/**
 * Every tile of `factors` as OpenSeadragon's IIIFTileSource asks for it (Image API 3): at
 * scale factor s, the tile (x, y) covers the picture's region from (x, y) × side × s, cut at
 * its right and bottom edges, and is asked at that region's size divided by s, rounded up as
 * the level's own size is (ceil(width / s)).
 */
export function deepZoomTiles(info: ImageInfo, factors: number[]): string[] {
  const base = new URL(info.id).pathname;
  const tile = info.tiles[0];
  if (tile === undefined) throw new Error('info.json declares no tiles');
  const [side, sideY] = [tile.width, tile.height ?? tile.width];
  const urls: string[] = [];
  for (const s of factors.filter((f) => tile.scaleFactors.includes(f))) {
    const [levelWidth, levelHeight] = [Math.ceil(info.width / s), Math.ceil(info.height / s)];
    for (let y = 0; y * sideY < levelHeight; y++) {
      for (let x = 0; x * side < levelWidth; x++) {
        const [left, top] = [x * side * s, y * sideY * s];
        const region = [left, top, Math.min(side * s, info.width - left), Math.min(sideY * s, info.height - top)];
        const size = [Math.min(side, levelWidth - x * side), Math.min(sideY, levelHeight - y * sideY)];
        urls.push(`${base}/${region.join(',')}/${size.join(',')}/0/default.jpg`);
      }
    }
  }
  return urls;
}

async function bytesAt(origin: string, url: string): Promise<Buffer> {
  const response = await fetch(origin + url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * Once the renders still in line for wrk's closed connections are made: the server makes a
 * render whose client has gone (it does not leave the line), and a run begun while the line
 * is full of them would be answered 503 busy until it drains. One request waits its turn
 * behind them all; refused as busy, it asks again.
 */
async function drained(origin: string, url: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const response = await fetch(origin + url);
    await response.arrayBuffer();
    if (response.status === 200) return;
    if (response.status !== 503) throw new Error(`${url}: ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${origin} still refuses ${url} as busy after 200 tries`);
}

/** A server's process and its render process (started at its first render): their CPU is summed. */
function processesOf(server: Served): number[] {
  const pid = server.child.pid!;
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children];
}

export async function timeIiif(bench: IiifBench): Promise<void> {
  const media = path.join(bench.dir, 'media');
  const pictureFile = path.join(media, bench.image.file);
  fs.mkdirSync(path.dirname(pictureFile), { recursive: true });
  const picture = await largePhotograph(PICTURE.width, PICTURE.height);
  fs.writeFileSync(pictureFile, picture);
  const env = { MEDIA_ROOT: media };
  const cachedServer = await bench.start(env);
  const uncachedServer = await bench.start({ ...env, IIIF_CACHE_MB: '0' });

  const info = JSON.parse((await bytesAt(cachedServer.origin, IIIF_PATHS.imageInfo(bench.image.id))).toString()) as ImageInfo;
  const tiles = deepZoomTiles(info, SCALE_FACTORS);
  // One pass on each server (the cached one keeps every tile); each tile's bytes written as a file under its own path, for the static server and under the media root.
  const staticRoot = path.join(bench.dir, 'static');
  const mediaTiles = 'static-tiles';
  let total = 0;
  let same = 0;
  for (const url of tiles) {
    const bytes = await bytesAt(cachedServer.origin, url);
    total += bytes.length;
    for (const root of [staticRoot, path.join(media, mediaTiles)]) {
      fs.mkdirSync(path.dirname(path.join(root, url)), { recursive: true });
      fs.writeFileSync(path.join(root, url), bytes);
    }
    if ((await bytesAt(uncachedServer.origin, url)).equals(bytes)) same++;
  }
  const staticServer = await bench.startStatic(staticRoot);
  for (const url of tiles.slice(0, 3)) {
    if (!(await bytesAt(staticServer.origin, url)).equals(await bytesAt(cachedServer.origin, url))) throw new Error(`the static server served other bytes for ${url}`);
  }
  const cacheMb = loadConfig({}).iiifCacheMb;
  const perLevel = SCALE_FACTORS.map((s) => `${deepZoomTiles(info, [s]).length} at scale factor ${s}`).join(', ');
  bench.log(`iiif: a ${info.width} × ${info.height} JPEG of ${(picture.length / 1e6).toFixed(1)} MB (picture ${bench.image.id}); ${tiles.length} tiles (${perLevel}), ${(total / tiles.length / 1024).toFixed(1)} KB on average, ${(total / 2 ** 20).toFixed(1)} MB in all (IIIF_CACHE_MB ${cacheMb}); the uncached server rendered ${same} of them byte for byte as the cached one`);
  if (total > cacheMb * 2 ** 20 * 0.9) bench.log(`  warning: the tiles are near or past IIIF_CACHE_MB: the cached server may render some again`);
  bench.log(`  wrk, 1 thread, ${bench.connections} keep-alive connections, ${bench.seconds} s measured after 1 s warm-up, ${bench.rounds} round(s), the four in turn each round; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  // Uncached, as many at once as a viewer asks for a screenful: within the renders' line
  // (WORK_PICTURES, 16 waiting each), whose refusals would be counted as tiles otherwise.
  const viewer = Math.min(bench.connections, VIEWER_CONNECTIONS);
  const cases: [string, Served, string[], number][] = [
    [`uncached (IIIF_CACHE_MB=0, ${viewer} at once)`, uncachedServer, tiles, viewer],
    ['cached (after one pass)', cachedServer, tiles, bench.connections],
    ['static files (node:http)', staticServer, tiles, bench.connections],
    ['/media/ (the same files)', cachedServer, tiles.map((url) => `/media/${mediaTiles}${url}`), bench.connections],
  ];
  const runs = new Map<string, Load[]>(cases.map(([name]) => [name, []]));
  for (let round = 0; round < bench.rounds; round++) {
    for (const [name, server, urls, connections] of cases) {
      const script = writeMixScript(bench.dir, urls);
      const options = { origin: server.origin, script, connections, core: bench.core, serverPid: processesOf(server) };
      await runWrk({ ...options, seconds: 1 });
      await drained(server.origin, urls[0]!);
      const measured = await runWrk({ ...options, seconds: bench.seconds });
      runs.get(name)!.push(measured);
      // What the errors were: one more short run, each answer looked at (which costs a call per answer, so not measured).
      if (measured.errors > 0) {
        const looked = await runWrk({ ...options, script: writeMixScript(bench.dir, urls, { firstError: true }), seconds: 2 });
        bench.log(`  ${name}: ${measured.errors} errors of ${measured.requests} requests; the first answer not a 2xx in a second run: ${looked.firstError ?? 'none (timeouts or socket errors)'}`);
      }
      await drained(server.origin, urls[0]!);
    }
  }
  // Tiles answered a second: refusals (503) are not tiles.
  const answered = (l: Load) => Math.round(l.requests === 0 ? 0 : (l.rps * (l.requests - l.errors)) / l.requests);
  const median = (loads: Load[], pick: (l: Load) => number) => loads.map(pick).sort((a, b) => a - b)[Math.floor(loads.length / 2)]!;
  const medians = new Map(cases.map(([name]) => {
    const loads = runs.get(name)!;
    return [name, { rps: median(loads, answered), p50: median(loads, (l) => l.p50), p99: median(loads, (l) => l.p99), cpuUs: median(loads, (l) => l.cpuUs) }];
  }));
  bench.log(`  ${'tiles of a 24-megapixel picture'.padEnd(28)} tiles/s    p50 ms   p99 ms   CPU µs/tile   MB/s   errors   rounds' tiles/s`);
  for (const [name] of cases) {
    const loads = runs.get(name)!;
    const m = medians.get(name)!;
    const errors = loads.reduce((sum, l) => sum + l.errors, 0);
    bench.log(`  ${name.padEnd(28)} ${String(m.rps).padStart(7)}  ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)}  ${m.cpuUs.toFixed(0).padStart(11)}  ${((m.rps * total) / tiles.length / 2 ** 20).toFixed(0).padStart(5)}  ${String(errors).padStart(7)}   ${loads.map(answered).join(', ')}`);
  }
  const [uncached, cached, files, mediaFiles] = cases.map(([name]) => medians.get(name)!);
  bench.log(`  ratios: cached ${(cached!.rps / files!.rps).toFixed(2)} of the static files' tiles/s (p99 ${(cached!.p99 / files!.p99).toFixed(2)}×), uncached ${(uncached!.rps / files!.rps).toFixed(3)} (p99 ${(uncached!.p99 / files!.p99).toFixed(1)}×); cached ${(cached!.rps / mediaFiles!.rps).toFixed(2)} of /media/'s`);
  bench.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
