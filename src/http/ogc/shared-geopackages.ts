// GeoPackages built for their request (a filtered or sorted `f=gpkg`, or any when no folder
// keeps whole ones): identical requests arriving while one is built share that build, so
// ten of them cost one build, not ten. A build is written into a temporary folder in a
// worker thread (GuardedStore.buildGeoPackage, in a turn of `builds`); each waiter opens the
// file, and once every waiter has, the folder goes (an open file is still read whole).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BuiltGeoPackage } from '../../work/protocol.js';

export interface SharedFile {
  readonly version: number;
  readonly size: number;
  readonly body: Readable;
}

interface Build {
  readonly dir: string;
  readonly built: Promise<BuiltGeoPackage & { file: string }>;
  waiting: number;
}

export class SharedGeoPackages {
  private readonly builds = new Map<string, Build>();

  /** The file of `key` (what makes it identical: version, base URL, the request's target), built by `build` unless a build of it is under way. */
  async open(key: string, build: (file: string) => Promise<BuiltGeoPackage>): Promise<SharedFile> {
    const entry = this.builds.get(key) ?? this.start(key, build);
    entry.waiting += 1;
    try {
      const { file, version } = await entry.built;
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
    const entry: Build = { dir, built: build(file).then((built) => ({ ...built, file })), waiting: 0 };
    this.builds.set(key, entry);
    return entry;
  }

  private finish(key: string, entry: Build): void {
    if (this.builds.get(key) === entry) this.builds.delete(key);
    fs.rmSync(entry.dir, { recursive: true, force: true });
  }
}
