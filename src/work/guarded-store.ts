// The store a server reads: every read of a work class (classes.ts), as its face declares it
// (reads.ts), takes a turn of that class first (gate.ts; refused at once past the line,
// before the store is asked anything), then runs in a worker thread of its class with the
// DB_TIMEOUT_MS deadline (pool.ts), on both stores: better-sqlite3 is synchronous, so a read
// on the main thread would hold every other request for as long as it took; and on
// PostgreSQL parsing and mapping a large page's rows was main-thread work too (measured: the
// isolation test's victim p99 589 ms with PostgreSQL's reads on the main thread, 141 ms in
// workers). Workers run at a low priority (worker.ts), so the event loop keeps its core.
// Reads of no class (a record by id, a page in id order, the version) run at once, on the
// main thread, as before.
import type { Config } from '../config.js';
import { StoreBusyError, type CatalogueReader, type PoolStats, type ReadOptions, type ReadPlan, type Replication, type Snapshot } from '../store/store.js';
import { workGates, type Gates, type WorkClass, type WorkLimitsConfig } from './classes.js';
import { WorkerLane } from './pool.js';
import { crossed, type JobCall, type ReadCall, type WorkerSetup } from './protocol.js';
import { startStream, type WorkerStream } from './download-stream.js';
import { readInline, type BoundedContext, type JobDeclaration, type KeptJob, type KeptSettings, type ReadDeclaration, type Reads, type WorkRegistry } from './reads.js';

export type GuardConfig = Pick<Config, 'database' | 'databaseSchema' | 'poolSize'> & WorkLimitsConfig & KeptSettings;

/** A server's store, its reads bounded by class; its worker threads end with `closeWorkers`, the store itself with its owner. */
export function guardStore(store: CatalogueReader, config: GuardConfig, registry: WorkRegistry): GuardedStore {
  if (store instanceof GuardedStore) return store;
  // A worker needs few connections: one read, or one download's snapshot.
  const setup: WorkerSetup = { database: config.database, databaseSchema: config.databaseSchema, poolSize: 2, dbTimeoutMs: config.dbTimeoutMs, registry: registry.module };
  return new GuardedStore(store, workGates(config), setup, registry, config.dbTimeoutMs, { mapIndexBatch: config.mapIndexBatch });
}

/** A read's or a job's last answer, kept for the catalogue version it was read at (ReadDeclaration.keptPerVersion, KeptJob). */
interface Kept<R = unknown> {
  version: number;
  value: R;
}

export class GuardedStore implements CatalogueReader, Reads {
  readonly poolStats?: () => PoolStats;
  readonly replication?: () => Promise<Replication>;
  /** A lane of worker threads per class, made when first used. */
  private readonly lanes = new Map<WorkClass, WorkerLane>();
  private readonly kept = new Map<string, Kept>();
  /** Kept answers being read again in the background (keepFor), by key. */
  private readonly refreshing = new Set<string>();
  /** The version at which a background run (keepFor) last failed, and when, by key: not tried again for that version for KEPT_RETRY_MS. */
  private readonly failedAt = new Map<string, { version: number; at: number }>();
  private readonly context: BoundedContext;

  constructor(
    private readonly inner: CatalogueReader,
    readonly gates: Gates,
    private readonly setup: WorkerSetup,
    private readonly registry: WorkRegistry,
    private readonly deadlineMs: number,
    private readonly keptSettings: KeptSettings,
  ) {
    this.context = { reader: inner, lastKept: (read) => this.lastKept(read), keepFor: (read, version) => this.keepFor(read, version) };
    const { poolStats, replication } = inner;
    if (poolStats) this.poolStats = () => poolStats.call(inner);
    if (replication) this.replication = () => replication.call(inner);
  }

  /** A declared read: inline when of no class (or bounded after all), else in a turn of its class, in a worker of its class. */
  ask<A extends unknown[], R>(read: ReadDeclaration<A, R>, ...args: A): Promise<R> {
    return read.keptPerVersion ? this.keptOrRead(read, args) : this.classified(read, args);
  }

  private async classified<A extends unknown[], R>(read: ReadDeclaration<A, R>, args: A): Promise<R> {
    const klass = read.workClass(...args);
    if (klass === null) return readInline(this.inner, read, args);
    const bounded = read.boundedAfterAll ? await read.boundedAfterAll(this.context, ...args) : null;
    if (bounded !== null) return readInline(this.inner, read, bounded);
    return this.offload(klass, { kind: 'read', name: read.name, args });
  }

  /** Kept for the version it was read at. */
  private keptOrRead<A extends unknown[], R>(read: ReadDeclaration<A, R>, args: A): Promise<R> {
    return this.keptFor(keptKey(read, args), () => this.classified(read, args));
  }

  /** BoundedContext.lastKept. */
  private lastKept<R>(job: KeptJob<R>): R | null {
    return this.keptUnder<R>(keptJobKey(job))?.value ?? null;
  }

  /** A kept job's answer of the catalogue's version: the one kept, else run now (in a turn of its class) and kept. */
  keptRun<R>(job: KeptJob<R>): Promise<R> {
    return this.keptFor(keptJobKey(job), () => this.build(job, this.keptSettings));
  }

  /** The answer kept under `key` when it is of the catalogue's version (one row, read inline), else `run`'s, kept. */
  private async keptFor<R>(key: string, run: () => Promise<R>): Promise<R> {
    const kept = this.keptUnder<R>(key);
    if (kept !== undefined && kept.version === (await this.inner.catalogueVersion())) return kept.value;
    const value = await run();
    const version = versionOf(value);
    if (version !== null) this.kept.set(key, { version, value });
    return value;
  }

  /**
   * What is kept under a key. A key names one declaration (its name, and a read's arguments:
   * keptKey, keptJobKey), and only keptFor, given that declaration's own run, writes under
   * it: so what it holds is that declaration's answer, of its type.
   */
  private keptUnder<R>(key: string): Kept<R> | undefined {
    return this.kept.get(key) as Kept<R> | undefined;
  }

  /** BoundedContext.keepFor: what a request reads inline never waits for the job. */
  private keepFor(job: KeptJob<unknown>, version: number): void {
    const key = keptJobKey(job);
    const kept = this.kept.get(key);
    const failed = this.failedAt.get(key);
    if (kept?.version === version || this.refreshing.has(key) || (failed?.version === version && Date.now() - failed.at < KEPT_RETRY_MS)) return;
    this.refreshing.add(key);
    // Refused (its class's line full): the next request asks again. Failed (a batch past its
    // deadline, DB_TIMEOUT_MS, on a machine loaded for a while): not again for this version
    // for a while, so that a job too long for the deadline does not take a worker's turn on
    // every request, yet is tried again. Callers read without it meanwhile.
    this.keptRun(job)
      .catch((error: unknown) => {
        if (!(error instanceof StoreBusyError)) this.failedAt.set(key, { version, at: Date.now() });
      })
      .finally(() => this.refreshing.delete(key));
  }

  /** A plan of the caller's own, inline (an engine's read). */
  read<R>(plan: ReadPlan<R>, options?: ReadOptions): Promise<R> {
    return this.inner.read(plan, options);
  }

  snapshot(): Promise<Snapshot> {
    return this.inner.snapshot();
  }

  catalogueVersion(): Promise<number> {
    return this.inner.catalogueVersion();
  }

  databaseIdentity(): Promise<string> {
    return this.inner.databaseIdentity();
  }

  /**
   * A streamed job (a download) made in a worker thread (encoded there too: a batch of large
   * footprints is tens of milliseconds of work), in a turn of its class held until the body
   * ends: its first part the head, then bytes.
   */
  async stream<A, H>(job: JobDeclaration<A, null, H | Uint8Array>, args: A): Promise<WorkerStream<H>> {
    const release = await this.gates[job.workClass].enter();
    try {
      const stream = await startStream<H>(this.lane(job.workClass), jobCall(job, args), this.deadlineMs);
      stream.body.once('close', release);
      return stream;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** A job run whole in a worker thread (a GeoPackage written into a file), in a turn of its class; each part it sends runs its deadline again. */
  build<A, R>(job: JobDeclaration<A, R, null>, args: A): Promise<R> {
    return this.gates[job.workClass].run(async () => crossed<R>(await this.lane(job.workClass).call(jobCall(job, args), this.deadlineMs, { progress: true })));
  }

  async closeWorkers(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => lane.close()));
  }

  /** In a turn of its class, in a worker of its class. */
  private offload<R>(klass: WorkClass, call: ReadCall): Promise<R> {
    return this.gates[klass].run(async () => crossed<R>(await this.lane(klass).call(call, this.deadlineMs)));
  }

  private lane(klass: WorkClass): WorkerLane {
    let lane = this.lanes.get(klass);
    if (lane === undefined) {
      lane = new WorkerLane(this.setup, this.registry.errors);
      this.lanes.set(klass, lane);
    }
    return lane;
  }
}

const keptKey = (read: { name: string }, args: unknown[]) => `${read.name} ${JSON.stringify(args)}`;

/** How long a kept job that failed waits before a request may start it again for the same version. */
const KEPT_RETRY_MS = 30_000;

const keptJobKey = (job: { name: string }) => `job ${job.name}`;

const jobCall = <A>(job: { name: string }, args: A): JobCall => ({ kind: 'job', name: job.name, args });

/** The catalogue version an answer carries, if any. */
function versionOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null || !('version' in value)) return null;
  return typeof value.version === 'number' ? value.version : null;
}
