// The throttles of the account forms, each a count of events per key in a window that begins
// with the key's first event (so a refusal is never renewed by more attempts). Counted in this
// process, and with REDIS_URL in Redis too, shared by every process and host: the stricter of
// the two is kept, so a Redis that is down leaves each process its own count, never none.
//
// Sign-in (ASVS 2.2.1, and OWASP's "Slow Down Online Guessing Attacks with Device Cookies"): a
// browser that has signed in to the account before shows a device cookie (devices.ts), and
// its failures count against that cookie alone (10, then it is distrusted); every other
// attempt is untrusted, counted per account name and per client address, and refused before
// any password is checked past either limit. So guesses spread over many addresses lock out
// the untrusted, never the owner's own browser.
//
// Sign-up: counted per client address (but not the operator's, RATE_LIMIT_EXEMPT: behind a
// proxy that is not trusted, every visitor has its address) and for the whole site.
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const FAILURES_PER_ACCOUNT = 10;
export const FAILURES_PER_CLIENT = 30;
export const FAILURES_PER_DEVICE = 10;
export const SIGN_UPS_PER_CLIENT = { limit: 5, windowMs: 60 * 60 * 1000 } as const;
export const SIGN_UPS_PER_SITE = { limit: 30, windowMs: 60 * 1000 } as const;
/** Keys remembered at most; the oldest windows are forgotten first. */
const REMEMBERED = 100_000;

/** A key's events in its window, and the window's time left (0: no window). */
export interface Count { events: number; leftMs: number }

const NONE: Count = { events: 0, leftMs: 0 };

class Counter {
  private readonly windows = new Map<string, { started: number; events: number }>();

  constructor(private readonly windowMs: number) {}

  read(key: string, now: number): Count {
    const window = this.windows.get(key);
    if (window === undefined || now - window.started >= this.windowMs) return NONE;
    return { events: window.events, leftMs: window.started + this.windowMs - now };
  }

  add(key: string, now: number): Count {
    const window = this.windows.get(key);
    if (window !== undefined && now - window.started < this.windowMs) window.events += 1;
    else {
      this.windows.delete(key);
      this.windows.set(key, { started: now, events: 1 });
      const oldest = this.windows.keys().next();
      if (this.windows.size > REMEMBERED && oldest.done !== true) this.windows.delete(oldest.value);
    }
    return this.read(key, now);
  }
}

/** Counts kept outside the process (Redis), one window for every key. */
export interface SharedCounts {
  read(keys: readonly string[]): Promise<Count[]>;
  /** Each key's count once this event is added. */
  add(keys: readonly string[]): Promise<Count[]>;
}

/** Counted here and, when there is one, in the shared store: a failure of the latter leaves the former. */
class Counts {
  private readonly local: Counter;

  constructor(windowMs: number, private readonly shared: SharedCounts | null, private readonly now: () => number) {
    this.local = new Counter(windowMs);
  }

  async read(keys: readonly string[]): Promise<Count[]> {
    const now = this.now();
    const shared = this.shared === null ? null : await this.shared.read(keys).catch(() => null);
    return keys.map((key, i) => stricter(this.local.read(key, now), shared?.[i]));
  }

  async add(keys: readonly string[]): Promise<Count[]> {
    const now = this.now();
    const local = keys.map((key) => this.local.add(key, now));
    const shared = this.shared === null ? null : await this.shared.add(keys).catch(() => null);
    return local.map((count, i) => stricter(count, shared?.[i]));
  }
}

const stricter = (a: Count, b: Count | undefined): Count => (b === undefined || a.events >= b.events ? a : b);

/** Milliseconds until none of the counts is at its limit. */
const waitOf = (counted: readonly { count: Count; limit: number }[]) =>
  Math.max(0, ...counted.filter(({ count, limit }) => count.events >= limit).map(({ count }) => count.leftMs));

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** One sign-in attempt: the name tried, from where, and the nonce of the browser's valid device cookie for that name (null: none). */
export interface SignInAttempt { accountKey: string; client: string; device: string | null }

export interface SignInVerdict {
  /** Whole seconds to wait before this attempt may be made; 0: now. */
  waitSeconds: number;
  /** Counts a failed attempt where it belongs: against the device when trusted, else the name and the address. */
  failed(): Promise<void>;
}

export class SignInThrottle {
  private readonly counts: Counts;

  constructor(shared: SharedCounts | null = null, now: () => number = Date.now) {
    this.counts = new Counts(THROTTLE_WINDOW_MS, shared, now);
  }

  async check(attempt: SignInAttempt): Promise<SignInVerdict> {
    const keys = [`name:${attempt.accountKey}`, `client:${attempt.client}`];
    const device = attempt.device === null ? null : `device:${attempt.device}`;
    const [name = NONE, client = NONE, ofDevice = NONE] = await this.counts.read(device === null ? keys : [...keys, device]);
    if (device !== null && ofDevice.events < FAILURES_PER_DEVICE) {
      return { waitSeconds: 0, failed: async () => void (await this.counts.add([device])) };
    }
    const waitMs = waitOf([{ count: name, limit: FAILURES_PER_ACCOUNT }, { count: client, limit: FAILURES_PER_CLIENT }]);
    return { waitSeconds: seconds(waitMs), failed: async () => void (await this.counts.add(keys)) };
  }
}

export interface SharedSignUps { client: SharedCounts; site: SharedCounts }

export class SignUpThrottle {
  private readonly clients: Counts;
  private readonly site: Counts;

  constructor(shared: SharedSignUps | null = null, now: () => number = Date.now) {
    this.clients = new Counts(SIGN_UPS_PER_CLIENT.windowMs, shared?.client ?? null, now);
    this.site = new Counts(SIGN_UPS_PER_SITE.windowMs, shared?.site ?? null, now);
  }

  /** Counts a sign-up from `client` (unless it is exempt); whole seconds to wait when it is one too many, else 0. */
  async admit(client: string, exempt: boolean): Promise<number> {
    // Counted first, then compared: the event past the limit is refused, and every one after it.
    // An address past its own limit is refused before the site's count: it cannot spend the others' allowance.
    const [own = NONE] = exempt ? [NONE] : await this.clients.add([client]);
    const ownWait = waitOf([{ count: own, limit: SIGN_UPS_PER_CLIENT.limit + 1 }]);
    if (ownWait > 0) return seconds(ownWait);
    const [site = NONE] = await this.site.add(['all']);
    return seconds(waitOf([{ count: site, limit: SIGN_UPS_PER_SITE.limit + 1 }]));
  }
}
