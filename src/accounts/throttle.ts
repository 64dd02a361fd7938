// Failed sign-ins counted per account name and per client address (ASVS 2.2.1): past either
// limit in the window, sign-in is refused before any password is checked, until the window
// that began with the first failure ends. Counted in this process; a fleet of processes
// behind one address each count their own (the README says so; Redis-shared counts are
// the rate limit's, not these).
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const FAILURES_PER_ACCOUNT = 10;
export const FAILURES_PER_CLIENT = 30;
/** Names and addresses remembered at most; the oldest windows are forgotten first. */
const REMEMBERED = 100_000;

interface Window { started: number; failures: number }

class Counter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limit: number) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  wait(key: string, now: number): number {
    const window = this.windows.get(key);
    if (window === undefined || now - window.started >= THROTTLE_WINDOW_MS) return 0;
    return window.failures >= this.limit ? window.started + THROTTLE_WINDOW_MS - now : 0;
  }

  fail(key: string, now: number): void {
    const window = this.windows.get(key);
    if (window === undefined || now - window.started >= THROTTLE_WINDOW_MS) {
      this.windows.delete(key);
      this.windows.set(key, { started: now, failures: 1 });
      if (this.windows.size > REMEMBERED) this.windows.delete(this.windows.keys().next().value!);
      return;
    }
    window.failures += 1;
  }
}

export class SignInThrottle {
  private readonly accounts = new Counter(FAILURES_PER_ACCOUNT);
  private readonly clients = new Counter(FAILURES_PER_CLIENT);

  constructor(private readonly now: () => number = Date.now) {}

  /** Whole seconds to wait before this name may be tried from this address; 0: now. */
  waitSeconds(accountKey: string, client: string): number {
    const now = this.now();
    return Math.ceil(Math.max(this.accounts.wait(accountKey, now), this.clients.wait(client, now)) / 1000);
  }

  failed(accountKey: string, client: string): void {
    const now = this.now();
    this.accounts.fail(accountKey, now);
    this.clients.fail(client, now);
  }
}
