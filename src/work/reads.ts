// How a face's store calls are declared to the executor: each read names its plan and says
// of which class of work (classes.ts) a call is, where the face makes it; the executor runs
// it inline or takes a turn of that class and runs it in a worker thread, knowing no face.
// A worker finds a read, and a job (a download, a file built), by name in the registry the
// composition root gives it (src/reads.ts): the faces' modules are loaded there, not here.
import type { Dialect } from '../store/dialect.js';
import type { Plan } from '../store/read-plans.js';
import type { CatalogueReader, ReadOptions } from '../store/store.js';
import type { Config } from '../config.js';
import type { WorkClass } from './classes.js';

export interface ReadDeclaration<A extends unknown[], R> {
  /** How a worker thread finds it: unique in the registry. */
  readonly name: string;
  /** Its plan, for the engine's SQL. */
  plan(dialect: Dialect, ...args: A): Plan<R>;
  /** The class of work a call is; null: bounded (an index lookup, a page by position), run at once, inline, in the caller. */
  workClass(...args: A): WorkClass | null;
  /**
   * A call of a class that proves bounded after all, by an index lookup made inline first
   * (a map view's page: store/map-view-reads.ts): the arguments to read it inline
   * with, or null to take its turn.
   */
  boundedAfterAll?(context: BoundedContext, ...args: A): Promise<A | null>;
  /**
   * A function of the catalogue version alone (its answer carries `version`): a server keeps
   * the last answer and gives it again while the version (one row, read inline) is the same.
   */
  readonly keptPerVersion?: boolean;
  readonly options?: ReadOptions;
}

/** What the server's settings say of the work it keeps per catalogue version: a kept job's arguments. */
export type KeptSettings = Pick<Config, 'mapIndexBatch'>;

/**
 * A job whose answer is a function of the catalogue version alone (it carries `version`),
 * run in a worker of its class, each part it sends running its deadline again (a build's
 * batches): a server keeps the last answer (BoundedContext.keepFor).
 */
export type KeptJob<R> = JobDeclaration<KeptSettings, R, null>;

/** What boundedAfterAll may look in: the store, and what the server keeps per catalogue version. */
export interface BoundedContext {
  readonly reader: CatalogueReader;
  /** The answer last kept of a kept job, of whatever version; null before the first. */
  lastKept<R>(job: KeptJob<R>): R | null;
  /** Runs it again in the background, in a worker of its class, one such run at a time, unless it is kept at `version`. */
  keepFor(job: KeptJob<unknown>, version: number): void;
}

/** What a worker's job is given: a store of its own, and the line to the main thread. */
export interface JobContext<P> {
  readonly store: CatalogueReader;
  /** A part of the answer, sent at once (a download's head, then its bytes; a build's progress). */
  part(value: P): void;
  /** Whether the main thread wants another part (false: stop, the client is gone). */
  more(): Promise<boolean>;
}

/** Work a worker thread runs that is not one read (a download, a file built), of its class, its parts of type P sent as it goes. */
export interface JobDeclaration<A, R, P> {
  readonly name: string;
  readonly workClass: WorkClass;
  run(context: JobContext<P>, args: A): Promise<R>;
}

/** An error that crosses from a worker as itself (a filter the SQL builder refused stays a 400), not as a failed worker. */
export interface CrossingError {
  readonly name: string;
  /** What it carries besides its message, when `error` is one. */
  details(error: unknown): unknown;
  remake(message: string, details: unknown): Error;
}

/** Every read and job a worker may be asked to run, and the errors that cross; `module` exports it as `WORK_REGISTRY`. */
export interface WorkRegistry {
  /** The module's URL, which a worker thread imports. */
  readonly module: string;
  readonly reads: readonly ReadDeclaration<unknown[], unknown>[];
  readonly jobs: readonly JobDeclaration<unknown, unknown, unknown>[];
  readonly errors: readonly CrossingError[];
}

/** A face's reads as a served store runs them: of its class, inline or in a worker. */
export interface Reads {
  ask<A extends unknown[], R>(read: ReadDeclaration<A, R>, ...args: A): Promise<R>;
}

/** A read run inline, in the caller, whatever its class (a command, a test, or a read of no class). */
export function readInline<A extends unknown[], R>(reader: CatalogueReader, read: ReadDeclaration<A, R>, args: A): Promise<R> {
  return reader.read((dialect) => read.plan(dialect, ...args), read.options);
}

/** The store a server's faces read: an engine's reads, and the declared ones run by their class (guarded-store.ts). */
export type ServedStore = CatalogueReader & Reads;
