// What grows with the catalogue (issue 21's "100 times larger"): the uncached first and last
// page of every collection, and the start-up; and a catalogue kept between runs, because
// generating and importing scale 100 (400,000 features) takes minutes on a busy machine.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LATEST_MIGRATION } from '../src/store/postgres/migrations.js';
import { SQLITE_SCHEMA_VERSION } from '../src/store/sqlite/schema.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/heritage-api');
const COLLECTIONS = ['features', 'images', 'documents', 'media'] as const;

export interface KeptDatabase {
  settings: { database: string; databaseSchema?: string };
  /** The catalogue file the database was imported from. */
  file: string;
}

/**
 * A demo catalogue of `scale` imported once and kept: under BENCH_CACHE (default
 * $TMPDIR/heritage-bench), the file written by `demo` and, for SQLite, the database
 * `import` made of it; for PostgreSQL the schema heritage_bench_scale_S of pgUrl. Both are
 * made again when the generator or the stores' schema changed since (a stamp says which).
 */
export function keptDatabase(scale: number, store: 'sqlite' | 'postgres', pgUrl: string, log: (line: string) => void): KeptDatabase {
  const dir = path.join(process.env.BENCH_CACHE ?? path.join(os.tmpdir(), 'heritage-bench'), `scale-${scale}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'catalogue.json');
  const { generator, imported } = keptStamps();
  if (readStamp(path.join(dir, 'catalogue.stamp')) !== generator) {
    run(['demo', '--scale', String(scale), '--out', file], log, `generating the scale-${scale} catalogue into ${file}`);
    fs.writeFileSync(path.join(dir, 'catalogue.stamp'), generator);
  }
  const settings = store === 'sqlite'
    ? { database: path.join(dir, 'catalogue.db') }
    : { database: pgUrl, databaseSchema: `heritage_bench_scale_${String(scale).replace('.', '_')}` };
  const stampFile = path.join(dir, `${store}.stamp`);
  if (readStamp(stampFile) !== imported) {
    const schema = settings.databaseSchema ? ['--schema', settings.databaseSchema] : [];
    run(['import', file, '--db', settings.database, ...schema], log, `importing it into ${store}`);
    fs.writeFileSync(stampFile, imported);
  } else {
    log(`reusing the scale-${scale} catalogue in ${store} (${dir}; delete it, or set BENCH_CACHE, to make it again)`);
  }
  return { settings, file };
}

/** What kept data was made by: the generator's sources, and the stores' schema versions. */
export function keptStamps(): { generator: string; imported: string } {
  const generator = stamp([path.join(ROOT, 'src/demo')]);
  return { generator, imported: `${generator} sqlite ${SQLITE_SCHEMA_VERSION} postgres ${LATEST_MIGRATION}` };
}

function run(args: string[], log: (line: string) => void, what: string): void {
  log(`${what}…`);
  const started = performance.now();
  const done = spawnSync(process.execPath, [BIN, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (done.status !== 0) throw new Error(`heritage-api ${args[0]} failed`);
  log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** A hash of every file under the folders: what the kept data was made by. */
function stamp(folders: string[]): string {
  const hash = crypto.createHash('sha256');
  for (const folder of folders) {
    for (const name of fs.readdirSync(folder, { recursive: true }).map(String).sort()) {
      const file = path.join(folder, name);
      if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex');
}

function readStamp(file: string): string | null {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/**
 * Page 1 and the last page of every collection, each rendered from the store (a distinct
 * URL each time: never cached): p50 of `n`, and the ratio (target ≤ 1.2).
 */
export async function firstAndLastPages(origin: string, log: (line: string) => void, n = 21): Promise<void> {
  log(`first and last page of each collection, rendered from the store (never cached), p50 of ${n}, asked alternately: first / last (ratio, target <= 1.2)`);
  for (const collection of COLLECTIONS) {
    const [first, last] = await alternateP50(n, [
      (i) => `${origin}/api/v1/${collection}/?uncached=${i}`,
      (i) => `${origin}/api/v1/${collection}/?page=last&uncached=${i}`,
    ]);
    log(`  ${collection.padEnd(9)} ${first!.toFixed(1)} ms / ${last!.toFixed(1)} ms (${(last! / first!).toFixed(2)})`);
  }
}

/** p50 of each URL, asked in turn (so that a machine's changing load falls on all alike). */
async function alternateP50(n: number, urls: ((i: number) => string)[]): Promise<number[]> {
  const times: number[][] = urls.map(() => []);
  for (let i = 0; i < n + 2; i++) {
    for (const [k, url] of urls.entries()) {
      const started = performance.now();
      const answer = await fetch(url(i));
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`${url(i)}: ${answer.status}`);
      // The first two rounds warm the connection and the database's pages, and are not counted.
      if (i >= 2) times[k]!.push(performance.now() - started);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!);
}
