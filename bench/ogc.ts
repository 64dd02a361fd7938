// The OGC face's uncached costs (issue 18): an items page of 100, the first pages against
// the last ones reached by following `next` (keyset paging: depth must not cost), a CQL2
// filter of three comparisons with a bbox, what numberMatched costs, record pages (issue 19),
// the whole-layer downloads (first bytes, server memory), and ogr2ogr copying the whole features layer. Every URL timed is asked once, so each is rendered from the store (but the whole GeoPackage, asked again to time its kept file).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Log = (line: string) => void;

async function timed(url: string): Promise<{ ms: number; body: { numberMatched: number; links: { rel: string; href: string }[] } }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = (await response.json()) as { numberMatched: number; links: { rel: string; href: string }[] };
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return { ms, body };
}

const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;

/** Follows next links from the first page of 100 to the end; times each page. */
async function walk(origin: string, log: Log): Promise<void> {
  const times: number[] = [];
  let url: string | undefined = `${origin}/ogc/collections/features/items?limit=100`;
  let matched = 0;
  while (url !== undefined) {
    const { ms, body } = await timed(url);
    times.push(ms);
    matched = body.numberMatched;
    url = body.links.find((l) => l.rel === 'next')?.href;
  }
  const first = p50(times.slice(0, 10));
  const last = p50(times.slice(-10));
  log(`OGC items, limit=100, every page by next links (${times.length} pages, numberMatched ${matched}): p50 ${p50(times).toFixed(1)} ms; first ten p50 ${first.toFixed(1)} ms, last ten ${last.toFixed(1)} ms (ratio ${(last / first).toFixed(2)}, target ≤ 1.2)`);
}

async function filters(origin: string, box: string, log: Log): Promise<void> {
  const times: number[] = [];
  let matched = 0;
  for (let i = 0; i < 23; i++) {
    const filter = `current >= ${1700 + i} AND feature_type = 'WHITECHAPEL_BUILDING' AND image_count >= 0`;
    const { ms, body } = await timed(`${origin}/ogc/collections/features/items?limit=100&bbox=${box}&filter=${encodeURIComponent(filter)}`);
    if (i >= 3) times.push(ms);
    matched = body.numberMatched;
  }
  log(`OGC items, CQL2 filter of three comparisons and a bbox, 20 distinct filters: p50 ${p50(times).toFixed(1)} ms (target ≤ 20; last numberMatched ${matched})`);
}

/** numberMatched of an unfiltered collection is the count kept at import: one indexed row, read with the page. */
async function counts(origin: string, log: Log): Promise<void> {
  const withCount: number[] = [];
  for (let i = 1; i <= 20; i++) withCount.push((await timed(`${origin}/ogc/collections/features/items?limit=${i}`)).ms);
  log(`OGC items, unfiltered, limit 1..20 (each distinct, numberMatched included): p50 ${p50(withCount).toFixed(1)} ms`);
}

/** Record pages (issue 19: p50 ≤ 10 ms at scale 10): 40 buildings' pages, each asked once, so each is rendered from the store. */
async function recordPages(origin: string, log: Log): Promise<void> {
  const { body } = await timed(`${origin}/ogc/collections/features/items?limit=1000&skipGeometry=true&properties=id`);
  const features = (body as unknown as { features: { id: number }[] }).features;
  const times: number[] = [];
  for (let i = 0; i < 43; i++) {
    const id = features[Math.floor((i * features.length) / 43)]!.id;
    const started = performance.now();
    const response = await fetch(`${origin}/ogc/collections/features/items/${id}?f=html`);
    await response.text();
    if (response.status !== 200) throw new Error(`the record page of ${id} answered ${response.status}`);
    if (i >= 3) times.push(performance.now() - started);
  }
  log(`record pages (f=html), a distinct building each, 40 requests: p50 ${p50(times).toFixed(1)} ms (target ≤ 10)`);
}

function ogr2ogr(origin: string, log: Log): void {
  const which = spawnSync('ogr2ogr', ['--version'], { encoding: 'utf8' });
  if (which.status !== 0) return log('ogr2ogr: not installed (apt-get install gdal-bin), skipped');
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-ogr-')), 'features.gpkg');
  const started = performance.now();
  const run = spawnSync('ogr2ogr', ['-f', 'GPKG', out, `OAPIF:${origin}/ogc`, 'features'], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) return log(`ogr2ogr failed: ${run.stderr}`);
  const info = spawnSync('ogrinfo', ['-ro', '-so', out, 'features'], { encoding: 'utf8' }).stdout;
  log(`ogr2ogr -f GPKG of the whole features layer: ${seconds.toFixed(1)} s (target < 20 s), ${/Feature Count: (\d+)/.exec(info)?.[1] ?? '?'} features`);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Each download of the whole features layer: time to its first bytes and to its end, and the
 * server's RSS while it streams. The GeoPackage three times: first asked (this base URL's file
 * is built then, unless the server built it ahead: with BASE_URL, or after a new version for
 * a base URL it had sent), again (the kept file), and as a filtered result and in another
 * order (no kept file: built for the request, its first bytes leave when it is written).
 */
export async function timeDownloads(origin: string, pid: number, log: Log): Promise<void> {
  const cases: [string, string][] = [
    ['f=geojson', 'f=geojson of every feature'],
    ['f=csv', 'f=csv of every feature'],
    ['f=fgb', 'f=fgb of every feature'],
    ['f=gpkg', 'f=gpkg of every feature, first asked'],
    ['f=gpkg', 'f=gpkg of every feature, again (kept file)'],
    [`f=gpkg&filter=${encodeURIComponent('current >= 1900')}`, 'f=gpkg, filter current >= 1900 (built for the request)'],
    ['f=gpkg&sortby=-id', 'f=gpkg of every feature, sortby=-id (built for the request)'],
  ];
  for (const [query, what] of cases) {
    const before = rssMb(pid);
    let peak = before;
    const started = performance.now();
    const response = await fetch(`${origin}/ogc/collections/features/items?${query}`);
    if (response.status !== 200) throw new Error(`${query} answered ${response.status}`);
    const reader = response.body!.getReader();
    let first = NaN;
    let bytes = 0;
    for (let chunks = 0; ; chunks++) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) first = performance.now() - started;
      bytes += value.byteLength;
      if (chunks % 64 === 0) peak = Math.max(peak, rssMb(pid));
    }
    const total = performance.now() - started;
    log(`download ${what}: first bytes after ${first.toFixed(0)} ms (target ≤ 100), whole ${(bytes / 2 ** 20).toFixed(1)} MB in ${(total / 1000).toFixed(1)} s; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)}, target < 50)`);
  }
}

export async function timeOgc(origin: string, pid: number, box: string, log: Log): Promise<void> {
  await walk(origin, log);
  await filters(origin, box, log);
  await counts(origin, log);
  await recordPages(origin, log);
  await timeDownloads(origin, pid, log);
  ogr2ogr(origin, log);
}
