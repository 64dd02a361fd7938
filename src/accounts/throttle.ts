// Failed sign-ins counted per account name and per client address (ASVS 2.2.1): past either
// limit in the window, sign-in is refused before any password is checked, until the window
// that began with the first failure ends. Counted in this process, and with REDIS_URL in
// Redis too, shared by every process and host: the longer wait of the two is kept, so a
// Redis that is down leaves each process its own count, never none.
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

/** Counts kept outside the process (Redis): each key's failures in its window, and the window's time left. */
export interface SharedFailures {
  read(keys: readonly string[]): Promise<{ failures: number; leftMs: number }[]>;
  add(keys: readonly string[]): Promise<void>;
}

export class SignInThrottle {
  private readonly accounts = new Counter(FAILURES_PER_ACCOUNT);
  private readonly clients = new Counter(FAILURES_PER_CLIENT);

  constructor(private readonly shared: SharedFailures | null = null, private readonly now: () => number = Date.now) {}

  /** Whole seconds to wait before this name may be tried from this address; 0: now. */
  async waitSeconds(accountKey: string, client: string): Promise<number> {
    const now = this.now();
    let waitMs = Math.max(this.accounts.wait(accountKey, now), this.clients.wait(client, now));
    const counted = this.shared === null ? null : await this.shared.read(sharedKeys(accountKey, client)).catch(() => null);
    if (counted !== null) {
      const [name, address] = counted;
      if (name && name.failures >= FAILURES_PER_ACCOUNT) waitMs = Math.max(waitMs, name.leftMs);
      if (address && address.failures >= FAILURES_PER_CLIENT) waitMs = Math.max(waitMs, address.leftMs);
    }
    return Math.ceil(waitMs / 1000);
  }

  async failed(accountKey: string, client: string): Promise<void> {
    const now = this.now();
    this.accounts.fail(accountKey, now);
    this.clients.fail(client, now);
    await this.shared?.add(sharedKeys(accountKey, client)).catch(() => undefined);
  }
}

const sharedKeys = (accountKey: string, client: string) => [`name:${accountKey}`, `client:${client}`];
