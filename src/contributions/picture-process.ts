// Pictures are decoded and re-encoded in a process of their own at the lowest CPU priority
// (nice 19 from its start, so libvips's threads are too), not in the server's: libvips runs
// on libuv's thread pool, which the server's files, password hashes and DNS share, and a
// 50-megapixel decode kept both cores of a small machine from the event loop. Started at the
// first upload, ended with the server; a picture that takes past its deadline ends the
// process (the next upload starts another) and is refused (the form says so, 503).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-files.js';
import type { PictureOutcome } from './pictures.js';

export interface PictureJob {
  id: number;
  bytes: Uint8Array;
}

export interface PictureReply {
  id: number;
  outcome: PictureOutcome;
}

/** A picture of 50 megapixels takes about 2 s here at full load; past this it is given up. */
export const PICTURE_DEADLINE_MS = 60_000;

/** The process's command: the compiled entry, or the .ts beside this one through tsx; under `nice` where there is one. */
function command(): [string, ...string[]] {
  const node: [string, ...string[]] = import.meta.url.endsWith('.ts')
    ? [process.execPath, '--import', import.meta.resolve('tsx'), new URL('./picture-child.ts', import.meta.url).pathname]
    : [process.execPath, path.join(PACKAGE_ROOT, 'dist', 'contributions', 'picture-child.js')];
  const nice = ['/usr/bin/nice', '/bin/nice'].find((file) => fs.existsSync(file));
  return nice === undefined ? node : [nice, '-n', '19', ...node];
}

/** Why a picture was refused (the route says so in its own words, 503). */
const ended = () => new Error('the picture process ended');

interface Waiting {
  resolve(outcome: PictureOutcome): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class PictureProcess {
  private child: ChildProcess | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(private readonly deadlineMs = PICTURE_DEADLINE_MS) {}

  prepare(bytes: Buffer): Promise<PictureOutcome> {
    const child = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(child, new Error('past its deadline')), this.deadlineMs);
      this.waiting.set(id, { resolve, reject, timer });
      const job: PictureJob = { id, bytes };
      child.send(job, (error) => {
        if (error) this.fail(child, ended());
      });
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child === null) return;
    this.fail(child, new Error('the server is stopping'));
    if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }

  private started(): ChildProcess {
    if (this.child !== null) return this.child;
    const [file, ...args] = command();
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
    child.on('message', (reply: PictureReply) => {
      const waiting = this.waiting.get(reply.id);
      if (waiting === undefined) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiting.timer);
      waiting.resolve(reply.outcome);
    });
    child.on('exit', () => this.fail(child, ended()));
    child.on('error', () => this.fail(child, ended()));
    this.child = child;
    return child;
  }

  /** The process ended (or is ended): every picture it held is refused; the next upload starts another. */
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
