// A node process of its own at the lowest CPU priority (nice 19 from its start, so its
// libvips threads are too), for work on pictures: libvips runs on libuv's thread pool, which
// the server's files, password hashes and DNS share, and one 50-megapixel decode kept both
// cores of a small machine from the event loop. Started at its first job, ended with the
// server; a job past its deadline ends the process (the next job starts another) and is
// refused, as is every job it held. Jobs and replies are one message each way, matched by id.
// Its users: contributions/picture-process.ts (uploads), iiif/render-process.ts (IIIF renders).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-files.js';

/** A message to the process: its id, and the job. */
export interface Envelope<J> {
  id: number;
  job: J;
}

/** Its reply to one job. */
export interface ReplyEnvelope<R> {
  id: number;
  reply: R;
}

/** Why a job was refused: the process ended, was ended, or the server is stopping. */
export class ProcessEndedError extends Error {}

/**
 * The command of a child whose entry is `entry` (a path under src/ without its extension):
 * the compiled one under dist/, or the .ts through tsx when the server runs from its sources;
 * under `nice` where there is one.
 */
export function nicedCommand(entry: string, runningFromSources: boolean): [string, ...string[]] {
  const node: [string, ...string[]] = runningFromSources
    ? [process.execPath, '--import', import.meta.resolve('tsx'), path.join(PACKAGE_ROOT, 'src', `${entry}.ts`)]
    : [process.execPath, path.join(PACKAGE_ROOT, 'dist', `${entry}.js`)];
  const nice = ['/usr/bin/nice', '/bin/nice'].find((file) => fs.existsSync(file));
  return nice === undefined ? node : [nice, '-n', '19', ...node];
}

interface Waiting<R> {
  resolve(reply: R): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The process's resident memory, read from /proc (Linux); null elsewhere or once it has ended. */
function residentBytes(pid: number): number | null {
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * 4096 : null;
  } catch {
    return null;
  }
}

/**
 * Its environment: glibc's allocator given two arenas instead of one per thread, so that
 * memory libvips frees between jobs is given back rather than kept in scattered arenas (sharp's
 * documentation says why); measured in the isolation test's render crowd.
 */
const CHILD_ENV = { ...process.env, MALLOC_ARENA_MAX: '2' };

export class NicedProcess<J, R> {
  private child: ChildProcess | null = null;
  private readonly waiting = new Map<number, Waiting<R>>();
  private nextId = 1;

  /** `recycleBytes`: once idle past this resident memory, the process is ended (the next job starts another), whatever its allocator kept. */
  constructor(
    private readonly command: () => [string, ...string[]],
    private readonly deadlineMs: number,
    private readonly recycleBytes = Number.POSITIVE_INFINITY,
  ) {}

  run(job: J): Promise<R> {
    const child = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(child, new ProcessEndedError('past its deadline')), this.deadlineMs);
      this.waiting.set(id, { resolve, reject, timer });
      const envelope: Envelope<J> = { id, job };
      child.send(envelope, (error) => {
        if (error) this.fail(child, new ProcessEndedError('the process ended'));
      });
    });
  }

  /** The process's id while it runs (tests and the isolation test's measures read it), else null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child === null) return;
    this.fail(child, new ProcessEndedError('the server is stopping'));
    if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }

  private started(): ChildProcess {
    if (this.child !== null) return this.child;
    const [file, ...args] = this.command();
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced', env: CHILD_ENV });
    child.on('message', (message: ReplyEnvelope<R>) => {
      const waiting = this.waiting.get(message.id);
      if (waiting === undefined) return;
      this.waiting.delete(message.id);
      clearTimeout(waiting.timer);
      waiting.resolve(message.reply);
      if (this.waiting.size === 0) this.recycleIfLarge(child);
    });
    const ended = () => this.fail(child, new ProcessEndedError('the process ended'));
    child.on('exit', ended);
    child.on('error', ended);
    this.child = child;
    return child;
  }

  private recycleIfLarge(child: ChildProcess): void {
    if (!Number.isFinite(this.recycleBytes) || child.pid === undefined) return;
    const resident = residentBytes(child.pid);
    if (resident !== null && resident > this.recycleBytes) this.fail(child, new ProcessEndedError('recycled'));
  }

  /** The process ended (or is ended): every job it held is refused; the next job starts another. */
  private fail(child: ChildProcess, error: Error): void {
    if (this.child !== child) return;
    this.child = null;
    for (const waiting of this.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.waiting.clear();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** The child's side: each job handled as it comes, its reply sent back; ends with its parent (the IPC channel closes). */
export function serveJobs<J, R>(handle: (job: J) => Promise<R>): void {
  process.on('message', (message: Envelope<J>) => {
    void handle(message.job).then((reply) => {
      const envelope: ReplyEnvelope<R> = { id: message.id, reply };
      process.send?.(envelope);
    });
  });
  process.on('disconnect', () => process.exit(0));
}
