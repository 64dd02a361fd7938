// Bounded concurrency for every request of a harvest: at most `size` at once, an optional
// pause after each (politeness), and a shared pause when the server asks for one
// (Retry-After), so one 429 slows every slot, not just the one that got it.
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export class RequestPool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;

  constructor(
    private readonly size: number,
    private readonly delayMs: number,
    private readonly sleep: Sleep,
  ) {}

  /** Runs `task` in a slot; the slot stays taken for the delay after it. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      if (this.delayMs > 0) await this.sleep(this.delayMs);
      this.release();
    }
  }

  /** Every slot waits at least until `ms` from now before its next attempt. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }

  /** How long an attempt starting now still has to wait for a pause; 0 when none. */
  remainingPause(): number {
    return Math.max(0, this.pausedUntil - Date.now());
  }

  private acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next task in line (first come, first served). */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
