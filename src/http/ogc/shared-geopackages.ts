// GeoPackages built for their request (a filtered or sorted `f=gpkg`, or any when no folder
// keeps whole ones): identical requests arriving while one is built share that build, so
// ten of them cost one build, not ten. A build is written into a temporary folder in a
// worker thread (worker-jobs.ts buildGeoPackage, in a turn of `builds`); each waiter opens the
// file, and once every waiter has, the folder goes (an open file is still read whole).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StoreBusyError } from '../../store/store.js';
import type { BuiltGeoPackage } from './worker-jobs.js';

export interface SharedFile {
  readonly version: number;
  readonly size: number;
  readonly body: Readable;
}

interface Build {
  readonly dir: string;
  readonly built: Promise<BuiltGeoPackage & { file: string }>;
  waiting: number;
  settled: boolean;
}

/**
 * A build, or a refusal (StoreBusyError: a 503) once its request has waited `waitMs` for it: a
 * slow build (a busy machine, a large catalogue) never holds a client without an answer. The
 * build goes on for the requests after; its failure is said only to those that wait for it.
 */
export function waitForBuild<T>(build: Promise<T>, waitMs: number): Promise<T> {
  if (waitMs === Infinity) return build;
  let timer: NodeJS.Timeout | undefined;
  const refused = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreBusyError('GeoPackage builds')), waitMs);
  });
  build.catch(() => undefined);
  return Promise.race([build, refused]).finally(() => clearTimeout(timer));
}

export class SharedGeoPackages {
  private readonly builds = new Map<string, Build>();

  /** A request waits at most `waitMs` for the build (then StoreBusyError: a 503), which goes on for those that come after. */
  constructor(private readonly waitMs: number) {}

  /** The file of `key` (what makes it identical: version, base URL, the request's target), built by `build` unless a build of it is under way. */
  async open(key: string, build: (file: string) => Promise<BuiltGeoPackage>): Promise<SharedFile> {
    const entry = this.builds.get(key) ?? this.start(key, build);
    entry.waiting += 1;
    try {
      const { file, version } = await waitForBuild(entry.built, this.waitMs);
      const handle = await fs.promises.open(file, 'r');
      const { size } = await handle.stat();
      return { version, size, body: handle.createReadStream({ highWaterMark: 256 * 1024 }) };
    } finally {
      entry.waiting -= 1;
      if (entry.waiting === 0) this.finish(key, entry);
    }
  }

  private start(key: string, build: (file: string) => Promise<BuiltGeoPackage>): Build {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-gpkg-'));
    const file = path.join(dir, 'download.gpkg');
    const entry: Build = { dir, built: build(file).then((built) => ({ ...built, file })), waiting: 0, settled: false };
    entry.built.then(() => (entry.settled = true), () => (entry.settled = true));
    this.builds.set(key, entry);
    return entry;
  }

  /** Every waiter has the file open (or gave up): the folder goes, once the build is over (a worker may still be writing into it). */
  private finish(key: string, entry: Build): void {
    const remove = () => {
      if (entry.waiting > 0) return;
      if (this.builds.get(key) === entry) this.builds.delete(key);
      fs.rmSync(entry.dir, { recursive: true, force: true });
    };
    if (entry.settled) remove();
    else entry.built.then(remove, remove);
  }
}
