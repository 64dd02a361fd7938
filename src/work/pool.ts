// Worker threads that run costly work off the event loop, in lanes (one per work class, so
// that one class's work never waits behind another's), each call with a deadline: past it
// the worker is ended (V8 stops it at its next JavaScript step; SQLite calls back into
// JavaScript for every row a geometry or text test reads) and the call fails with
// StoreUnavailableError, the 503 a PostgreSQL statement timeout gives. A worker runs one
// call at a time; a lane grows to as many workers as calls run in it at once, which the
// class's gate (gate.ts) bounds.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../package-files.js';
import { StoreError, StoreUnavailableError } from '../store/store.js';
import { failureFromWire, type WorkerCall, type WorkerReply, type WorkerRequest, type WorkerSetup } from './protocol.js';
import type { CrossingError } from './reads.js';

/**
 * The worker's module: the compiled one (dist/ is beside dist-test/'s bundle too); from
 * source (tsx), the .ts beside this one, loaded after tsx's hooks are registered in the
 * thread (a worker does not inherit them).
 */
function workerEntry(): { file: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { file: path.join(PACKAGE_ROOT, 'dist', 'work', 'worker.js'), eval: false };
  const source = new URL('./worker.ts', import.meta.url).href;
  return { file: `import('tsx/esm/api').then((tsx) => tsx.register()).then(() => import(${JSON.stringify(source)}));`, eval: true };
}

/** A worker's heap: a page at the record limits is some 12 MB, a download batch less. */
const WORKER_HEAP_MB = 128;
/**
 * A worker's young generation: V8's default (3 × 16 MB semi-spaces) in each of up to seven
 * workers kept some 200 MB resident under issue 33's attack for nothing (a worker's large
 * strings live in the old generation); 12 MB scavenges more often and costs no latency measured.
 */
const WORKER_YOUNG_MB = 12;

/** A deadline of CPU time ends a worker that has waited this many deadlines on the wall clock too. */
const WALL_CEILING = 20;
/** The shortest wait before the CPU time is read again (the kernel counts it in 10 ms ticks). */
const MIN_CHECK_MS = 20;
/** Linux's clock ticks per second (USER_HZ), the unit of /proc's CPU times. */
const TICKS_PER_SECOND = 100;

/** A thread's CPU time so far, in ms, from /proc/self/task/TID/stat (utime + stime); null where it cannot be read. */
function threadCpuMs(tid: number | null): number | null {
  if (tid === null) return null;
  try {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** How a call's parts are taken: each handed to `onPart`; `progress`: the deadline runs again at once (a build's batches), else when the next is asked for (a download's chunks). */
export interface PartOptions {
  onPart?: (part: unknown) => void;
  progress?: boolean;
}

interface Pending extends PartOptions {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** The call's id, which the worker's words on it carry. */
  id: number;
  deadlineMs: number;
  timer: NodeJS.Timeout | null;
}

/** One worker thread and the one call it runs. */
class Thread {
  readonly worker: Worker;
  private pending: Pending | null = null;
  private nextId = 0;
  private ended = false;
  /** The thread's id in the kernel (Linux), for its CPU time; null where it is not known. */
  private tid: number | null = null;
  private readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;

  constructor(
    setup: WorkerSetup,
    private readonly crossing: readonly CrossingError[],
    private readonly onEnd: (thread: Thread) => void,
  ) {
    const entry = workerEntry();
    this.worker = new Worker(entry.file, { eval: entry.eval, workerData: setup, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.worker.on('message', (reply: WorkerReply) => this.received(reply));
    this.worker.on('error', (error) => this.end(new StoreError(`a worker thread failed: ${error.message}`)));
    this.worker.on('exit', () => this.end(new StoreUnavailableError('a worker thread ended')));
    // After the listeners (adding one refs the thread again): an idle worker never keeps the process alive.
    this.worker.unref();
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  /** The deadline runs from when the worker has loaded and opened its store: a thread's start is not the work's cost. */
  call(request: WorkerCall, deadlineMs: number, parts: PartOptions = {}): Promise<unknown> {
    // A call under way keeps the process alive, as a socket would; an idle worker does not.
    this.worker.ref();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, ...parts, id, deadlineMs, timer: null };
      void this.ready.then(() => {
        if (this.ended) return;
        this.arm();
        this.worker.postMessage({ ...request, id } satisfies WorkerRequest);
      });
    });
  }

  /** A streaming call's next part is wanted (the deadline runs again until it comes), or none is. */
  want(stop: boolean): void {
    if (this.ended || this.pending === null) return;
    this.worker.postMessage({ kind: 'more', id: this.pending.id, stop } satisfies WorkerRequest);
    if (!stop) this.arm();
  }

  /** Ends the thread; its call (if any) fails with `error`. */
  end(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    const pending = this.pending;
    this.pending = null;
    if (pending?.timer) clearTimeout(pending.timer);
    pending?.reject(error);
    void this.worker.terminate();
    this.onEnd(this);
  }

  /**
   * The deadline counts the worker's own CPU time where Linux tells it (its thread's line in
   * /proc): a worker waiting for a core on a busy machine is not doing the request's work,
   * and ending it then would refuse cheap reads for the machine's load. A wall-clock ceiling
   * of WALL_CEILING deadlines still ends one that waits for ever.
   */
  private arm(): void {
    const pending = this.pending;
    if (pending === null) return;
    const { deadlineMs } = pending;
    if (pending.timer) clearTimeout(pending.timer);
    const cpuAtStart = threadCpuMs(this.tid);
    const wallAtStart = Date.now();
    const check = (waitMs: number) => {
      pending.timer = setTimeout(() => {
        const used = cpuAtStart === null ? Date.now() - wallAtStart : (threadCpuMs(this.tid) ?? Infinity) - cpuAtStart;
        const left = deadlineMs - used;
        if (left > 0 && Date.now() - wallAtStart < deadlineMs * WALL_CEILING) return check(Math.max(left, MIN_CHECK_MS));
        this.end(new StoreUnavailableError(`the work took longer than ${deadlineMs} ms (DB_TIMEOUT_MS)`));
      }, waitMs);
      pending.timer.unref();
    };
    check(deadlineMs);
  }

  private received(reply: WorkerReply): void {
    if (reply.kind === 'ready') {
      this.tid = reply.tid;
      return this.markReady();
    }
    const pending = this.pending;
    if (pending === null) return;
    if (reply.kind === 'part') {
      if (pending.timer) clearTimeout(pending.timer);
      pending.timer = null;
      if (pending.progress) this.arm();
      pending.onPart?.(reply.value);
      return;
    }
    if (pending.timer) clearTimeout(pending.timer);
    this.pending = null;
    this.worker.unref();
    if (reply.kind === 'done') pending.resolve(reply.value);
    else pending.reject(failureFromWire(reply.failure, this.crossing));
  }
}

export class WorkerLane {
  private readonly idle: Thread[] = [];
  private readonly all = new Set<Thread>();
  private closed = false;

  constructor(
    private readonly setup: WorkerSetup,
    /** The errors that cross from a worker as themselves (the registry's). */
    private readonly crossing: readonly CrossingError[],
  ) {}

  /** Runs one call on an idle worker (a new one when none is idle). */
  async call(request: WorkerCall, deadlineMs: number, parts?: PartOptions): Promise<unknown> {
    const thread = this.take();
    try {
      return await thread.call(request, deadlineMs, parts);
    } finally {
      this.giveBack(thread);
    }
  }

  /**
   * A call whose answer comes in parts (a download's chunks): each part is handed to
   * `onPart`, and the next is asked for by `more` (credit of one: memory stays at one part
   * while the client reads slowly); the deadline runs only while a part is awaited. `stop`
   * asks for no more (a client gone mid-download): the worker closes its snapshot and ends the call.
   */
  stream(request: WorkerCall, deadlineMs: number, onPart: (part: unknown) => void): { done: Promise<unknown>; more(): void; stop(): void } {
    const thread = this.take();
    const done = thread.call(request, deadlineMs, { onPart });
    void done.then(() => this.giveBack(thread), () => this.giveBack(thread));
    return { done, more: () => thread.want(false), stop: () => thread.want(true) };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((thread) => thread.worker.terminate()));
  }

  private take(): Thread {
    if (this.closed) throw new StoreUnavailableError('the store is closing');
    const thread = this.idle.pop() ?? new Thread(this.setup, this.crossing, (ended) => this.forget(ended));
    this.all.add(thread);
    return thread;
  }

  private giveBack(thread: Thread): void {
    if (this.all.has(thread) && !thread.busy && !this.closed) this.idle.push(thread);
  }

  private forget(thread: Thread): void {
    this.all.delete(thread);
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
  }
}
