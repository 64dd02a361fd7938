// A bound on how much of one class of costly work runs at once (classes.ts): at most
// `running` at a time, at most `waiting` more in line, each waiting at most `waitMs`.
// Refusing is the cheap path: past the line, a request is turned away at once, before it
// has asked anything of the store, so a crowd of refused clients costs next to nothing.
import { StoreBusyError } from '../store/store.js';

export interface GateLimits {
  readonly running: number;
  readonly waiting: number;
  /** The longest a request waits for its turn; then it is refused too. */
  readonly waitMs: number;
}

interface Waiter {
  resolve(release: () => void): void;
  timer: NodeJS.Timeout;
}

export class Gate {
  private active = 0;
  private readonly line: Waiter[] = [];

  constructor(
    /** What the refusal names (classes.ts). */
    readonly name: string,
    private readonly limits: GateLimits,
  ) {}

  /**
   * Resolves with the function that gives the turn back (call it once); rejects with
   * StoreBusyError, or with `signal`'s reason once it aborts while waiting (its place in line
   * freed at once: a client that has gone holds none).
   */
  enter(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.active < this.limits.running) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.line.length >= this.limits.waiting) return Promise.reject(new StoreBusyError(this.name));
    return new Promise((resolve, reject) => {
      const leave = (why: unknown) => {
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.line.indexOf(waiter);
        if (at !== -1) this.line.splice(at, 1);
        reject(why);
      };
      const onAbort = () => leave(signal?.reason);
      const waiter: Waiter = {
        resolve: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        timer: setTimeout(() => leave(new StoreBusyError(this.name)), this.limits.waitMs),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(waiter);
    });
  }

  /** Runs `work` in a turn of its own. */
  async run<R>(work: () => Promise<R>): Promise<R> {
    const release = await this.enter();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Turns taken now, and requests in line (metrics, tests). */
  load(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.line.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.line.shift();
      if (next === undefined) {
        this.active -= 1;
        return;
      }
      clearTimeout(next.timer);
      next.resolve(this.releaser());
    };
  }
}
