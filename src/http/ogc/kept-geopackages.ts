// Each collection's whole GeoPackage (`f=gpkg` and nothing else: the `rel=enclosure` link),
// built once per catalogue version into a kept file and then streamed from it, so its first
// bytes leave at once. A GeoPackage is a SQLite file whose first page is written last, so it
// cannot be streamed while it is made; the build (≈1 s for 40,000 footprints) is paid once
// per version, in the background when the server sees the version, not by each request.
//
// Files live in DOWNLOAD_CACHE_DIR, named by the database (store.databaseIdentity), the base
// URL (the items carry absolute URLs), the collection and the version, so that processes on
// one machine can share the folder: a build writes a temporary name of its own (the pid in
// it) and renames it into place, so two processes building the same file is harmless, and a
// file, once there, never changes. A reader opens the file before streaming it: an unlink
// of an old version meanwhile does not cut it. The folder stays bounded: old versions' files
// go when a newer one is seen or built, so do those of all but a few base URLs (the Host is
// the client's to choose), other databases' files unused for a day, and temporary files of
// processes that are gone.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { CATALOGUE_COLLECTIONS, type CatalogueCollection } from '../../catalogue/collections.js';
import { ALL_OF_EACH_ITEM } from '../../render/ogc/items.js';
import { WHOLE_COLLECTION } from '../../store/ogc-plans.js';
import { StoreUnavailableError } from '../../store/store.js';
import type { GuardedStore } from '../../work/guarded-store.js';
import { waitForBuild } from './shared-geopackages.js';

/**
 * Base URLs kept per database: this process makes their files again at each new version
 * (without BASE_URL), and the folder holds files for at most this many, the least recently
 * sent going first: a Host header is the client's to choose (any port), so it must not
 * decide how much disk is used.
 */
const KEPT_BASES = 4;
/** Another database's files unused this long are removed (a database made again, or swapped for a new file, leaves its old ones). */
const UNUSED_MS = 24 * 3600 * 1000;

export interface KeptFile {
  /** The catalogue version the whole file is of. */
  readonly version: number;
  readonly size: number;
  readonly body: Readable;
}

export interface KeptGeoPackages {
  /**
   * The collection's whole GeoPackage for this base URL, at `version` or (an import having
   * landed since it was polled) a later one: opened from the kept file, built first when
   * missing (a request arriving during a build waits for that build). Null when files cannot
   * be kept here (the folder refused, a build failed): the caller builds one for itself.
   */
  open(collection: CatalogueCollection, baseUrl: string, version: number): Promise<KeptFile | null>;
  /**
   * A new catalogue version: older files go, and the known base URLs' files are built, one at
   * a time; resolves (never rejects) once that is done or a later version has taken over.
   */
  sawVersion(version: number): Promise<void>;
  /** Stops the background builds (at their next batch) and waits for every build to end. */
  close(): Promise<void>;
}

interface Built {
  readonly file: string;
  readonly version: number;
}

/** Where a failure is said (the app's logger). */
export type WarningLog = Pick<FastifyBaseLogger, 'warn'>;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);
const FILE_NAME = /^([\w-]{16})-([\w-]{16})-([a-z]+)-(\d+)\.gpkg$/;
const TEMP_NAME = /^\.[\w-]+\.gpkg\.(\d+)-[0-9a-f]+\.tmp(?:-journal)?$/;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The folder, made when missing; refused (a sentence) when another user could put files in it. */
function prepareFolder(dir: string): string | null {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) return `${dir} is not a folder`;
  if (process.getuid !== undefined && stat.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((stat.mode & 0o002) !== 0) return `${dir} is writable by every user`;
  return null;
}

/** What the kept files are made with: the database's name, and builds in worker threads (src/work/guarded-store.ts). */
export type GeoPackageBuilder = Pick<GuardedStore, 'databaseIdentity' | 'buildGeoPackage'>;

/** How long a request waits for a build of its file before it is answered 503 (the build goes on; a later request finds the file): 10 deadlines. */
export function buildWaitMs(dbTimeoutMs: number): number {
  return dbTimeoutMs * 10;
}

export function keptGeoPackages(
  store: GeoPackageBuilder, options: { dir: string | null; baseUrl: string | null; log: WarningLog; waitMs?: number },
): KeptGeoPackages | null {
  if (options.dir === null) return null;
  return new KeptFiles(store, options.dir, options.baseUrl, options.log, options.waitMs ?? Infinity);
}

class KeptFiles implements KeptGeoPackages {
  /** Builds under way in this process, by file name (one per collection, base and version). */
  private readonly building = new Map<string, Promise<Built>>();
  private readonly bases: string[];
  /** The folder's last refusal, said once. */
  private refusal: string | null = null;
  private background: Promise<void> = Promise.resolve();
  private latest = -1;
  private closed = false;

  constructor(
    private readonly store: GeoPackageBuilder,
    private readonly dir: string,
    private readonly baseUrl: string | null,
    private readonly log: WarningLog,
    /** A request waits this long for a build, then is refused (StoreBusyError) while the build goes on. */
    private readonly waitMs: number,
  ) {
    this.bases = baseUrl === null ? [] : [baseUrl];
  }

  async open(collection: CatalogueCollection, baseUrl: string, version: number): Promise<KeptFile | null> {
    if (this.closed || !this.usable()) return null;
    this.remember(baseUrl);
    try {
      const identity = digest(await this.store.databaseIdentity());
      // Twice at most: the file found may be removed before it is opened (a newer version seen
      // by another process), and the second look starts from the version built meanwhile.
      let wanted = version;
      for (let attempt = 0; attempt < 2; attempt++) {
        const found = await this.openFile(this.fileOf(identity, baseUrl, collection, wanted), wanted);
        if (found !== null) return found;
        const built = await waitForBuild(this.build(identity, collection, baseUrl, wanted), this.waitMs);
        const opened = await this.openFile(built.file, built.version);
        if (opened !== null) return opened;
        wanted = built.version;
      }
      return null;
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      this.log.warn({ err: error, collection }, 'a GeoPackage could not be kept; this request builds its own');
      return null;
    }
  }

  sawVersion(version: number): Promise<void> {
    this.latest = version;
    // One after the other: never more than one background build, and a stale round stops.
    this.background = this.background.then(() => this.buildAll(version)).catch((error: unknown) => {
      this.log.warn({ err: error, version }, 'GeoPackages of a new catalogue version could not be built ahead');
    });
    return this.background;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.background;
    await Promise.allSettled([...this.building.values()]);
  }

  private remember(baseUrl: string): void {
    if (this.baseUrl !== null) return; // BASE_URL: every request's base is it
    const at = this.bases.indexOf(baseUrl);
    if (at === 0) return;
    if (at > 0) this.bases.splice(at, 1);
    this.bases.unshift(baseUrl);
    this.bases.length = Math.min(this.bases.length, KEPT_BASES);
  }

  /**
   * Whether the folder can hold the files, checked at each use (a cleaner of temporary folders
   * may remove it; it is made again); a refusal is said once, and GeoPackages are then built
   * per request.
   */
  private usable(): boolean {
    let refusal: string | null;
    try {
      refusal = prepareFolder(this.dir);
    } catch (error) {
      refusal = `${this.dir} cannot be used (${(error as Error).message})`;
    }
    if (refusal !== null && refusal !== this.refusal) this.log.warn(`DOWNLOAD_CACHE_DIR: ${refusal}; GeoPackages are built for each request`);
    this.refusal = refusal;
    return refusal === null;
  }

  private fileOf(identity: string, baseUrl: string, collection: CatalogueCollection, version: number): string {
    return path.join(this.dir, `${identity}-${digest(baseUrl)}-${collection}-${version}.gpkg`);
  }

  private async openFile(file: string, version: number): Promise<KeptFile | null> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      // Its time of last use, which the clean-up goes by.
      const now = new Date();
      await handle.utimes(now, now);
      return { version, size, body: handle.createReadStream({ highWaterMark: 256 * 1024 }) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The one build in this process of this file; its snapshot may be of a later version than asked. */
  private build(identity: string, collection: CatalogueCollection, baseUrl: string, version: number): Promise<Built> {
    const file = this.fileOf(identity, baseUrl, collection, version);
    let built = this.building.get(file);
    if (built === undefined) {
      built = this.buildFrom(identity, collection, baseUrl, version).finally(() => this.building.delete(file));
      this.building.set(file, built);
    }
    return built;
  }

  /** Built in a worker thread (a turn of `builds`) into a temporary name, then named by the version its snapshot read. */
  private async buildFrom(identity: string, collection: CatalogueCollection, baseUrl: string, asked: number): Promise<Built> {
    if (!this.usable()) throw new Error('DOWNLOAD_CACHE_DIR cannot be used');
    const temp = path.join(this.dir, `.${path.basename(this.fileOf(identity, baseUrl, collection, asked))}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      const { version } = await this.store.buildGeoPackage({ kind: 'geopackage', collection, query: WHOLE_COLLECTION, options: ALL_OF_EACH_ITEM, baseUrl, file: temp });
      if (this.closed) throw new Error('the server is closing');
      const file = this.fileOf(identity, baseUrl, collection, version);
      // On disk before it has its name: a crash must not leave a named file that is not whole.
      const handle = await fs.promises.open(temp, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      // Another process may have named it first: the same catalogue version, the same bytes.
      if (!fs.existsSync(file)) fs.renameSync(temp, file);
      this.cleanUp(identity, version);
      return { file, version };
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }

  /**
   * Removes this database's files older than `version` and those of all but the KEPT_BASES
   * base URLs last sent, other databases' files unused for UNUSED_MS, and temporary files of
   * processes that are gone. A file removed while it is being sent is still sent whole (it is
   * open).
   */
  private cleanUp(identity: string, version: number): void {
    const now = Date.now();
    const lastUse = new Map<string, number>();
    const current: { name: string; base: string }[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      const file = path.join(this.dir, name);
      const temp = TEMP_NAME.exec(name);
      if (temp !== null) {
        if (!isAlive(Number(temp[1]))) fs.rmSync(file, { force: true });
        continue;
      }
      const kept = FILE_NAME.exec(name);
      if (kept === null) continue;
      const [, database, base] = kept as unknown as [string, string, string];
      const used = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
      if (used === undefined) continue;
      if (database !== identity) {
        if (now - used > UNUSED_MS) fs.rmSync(file, { force: true });
      } else if (Number(kept[4]) < version) {
        fs.rmSync(file, { force: true });
      } else {
        current.push({ name, base });
        lastUse.set(base, Math.max(lastUse.get(base) ?? 0, used));
      }
    }
    const keptBases = new Set([...lastUse].sort((a, b) => b[1] - a[1]).slice(0, KEPT_BASES).map(([base]) => base));
    for (const { name, base } of current) if (!keptBases.has(base)) fs.rmSync(path.join(this.dir, name), { force: true });
  }

  private async buildAll(version: number): Promise<void> {
    if (this.closed || version !== this.latest || !this.usable()) return;
    const identity = digest(await this.store.databaseIdentity());
    this.cleanUp(identity, version);
    for (const baseUrl of [...this.bases]) {
      for (const collection of CATALOGUE_COLLECTIONS) {
        if (this.closed || version !== this.latest) return;
        const file = this.fileOf(identity, baseUrl, collection, version);
        if (fs.existsSync(file) || this.buildingElsewhere(file)) continue;
        await this.build(identity, collection, baseUrl, version);
      }
    }
  }

  /** Another live process is writing this file (its temporary name is there): no second build ahead of requests. */
  private buildingElsewhere(file: string): boolean {
    const prefix = `.${path.basename(file)}.`;
    return fs.readdirSync(this.dir).some((name) => {
      const temp = name.startsWith(prefix) ? TEMP_NAME.exec(name) : null;
      return temp !== null && Number(temp[1]) !== process.pid && isAlive(Number(temp[1]));
    });
  }
}
