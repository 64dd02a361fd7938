// Notices a new catalogue: polls the store's catalogue version (a row, so it also works on
// a streaming replica, where LISTEN/NOTIFY does not reach). The answer cache is looked up
// under the version seen here, so a new catalogue is served within one poll interval; and
// sooner when a read meets it first: every read returns its snapshot's version, and one
// newer than the watch's becomes the current version at once (met), so that no client reads
// a new record and then an old cached list (two catalogues) in the same process.
import type { CatalogueReader } from './store/store.js';

export interface VersionWatch {
  /** The last version seen; null until the first successful poll or read. */
  current(): number | null;
  /** When this process first saw the current version (ms since the epoch); null before. */
  seenAt(): number | null;
  /** A read met this version: newer than the current one, it becomes current now; older, it changes nothing. */
  met(version: number): void;
  stop(): void;
}

export function watchCatalogueVersion(
  store: CatalogueReader,
  intervalMs: number,
  onChange: (version: number, previous: number | null) => void,
): VersionWatch {
  let current: number | null = null;
  let seenAt: number | null = null;
  let polling = false;
  /** How many times a read moved the version on: a poll under way meanwhile may answer an older one. */
  let moves = 0;
  const become = (version: number) => {
    const previous = current;
    current = version;
    seenAt = Date.now();
    onChange(version, previous);
  };
  const poll = async () => {
    if (polling) return;
    polling = true;
    const movesBefore = moves;
    try {
      const version = await store.catalogueVersion();
      // Older than what a read met during the poll: the poll is late, not the catalogue
      // changed. Otherwise followed even downwards (a database made again starts from 1).
      const late = moves !== movesBefore && current !== null && version < current;
      if (version !== current && !late) become(version);
    } catch {
      // The database is away: requests answer 503 meanwhile; the next poll tries again.
    } finally {
      polling = false;
    }
  };
  const met = (version: number) => {
    if (current !== null && version <= current) return;
    moves++;
    become(version);
  };
  void poll();
  const timer = setInterval(poll, intervalMs);
  timer.unref();
  return { current: () => current, seenAt: () => seenAt, met, stop: () => clearInterval(timer) };
}

/**
 * The store as the routes read it: the version each read returns (a page's, a record's, a
 * tile's, a download's snapshot, or catalogueVersion's own) is told to the watch before the
 * caller sees it. Every method passes (a store's own beyond the reader's too, whatever
 * returns a `version`), so a read added later is covered; the cost is a comparison per
 * read, none per cached answer.
 */
export function reportingVersions<S extends CatalogueReader>(store: S, watch: Pick<VersionWatch, 'met'>): S {
  const wrappers = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      let wrapper = wrappers.get(name);
      if (wrapper === undefined) {
        const tell = versionTeller(name, watch);
        wrapper = (...args: unknown[]) => {
          const result: unknown = Reflect.apply(value, target, args);
          // Told first: this callback is added before the caller's await.
          if (result instanceof Promise) result.then(tell, () => undefined);
          return result;
        };
        wrappers.set(name, wrapper);
      }
      return wrapper;
    },
  });
}

/** catalogueVersion answers the version itself; every other read, an object with a `version` (or none: pool stats, identity). */
function versionTeller(name: PropertyKey, watch: Pick<VersionWatch, 'met'>): (result: unknown) => void {
  if (name === 'catalogueVersion') return (result) => {
    if (typeof result === 'number') watch.met(result);
  };
  return (result) => {
    const version: unknown = typeof result === 'object' && result !== null && 'version' in result ? result.version : undefined;
    if (typeof version === 'number') watch.met(version);
  };
}
