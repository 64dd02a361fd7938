// Notices a new catalogue: polls the store's catalogue version (a row, so it also works on
// a streaming replica, where LISTEN/NOTIFY does not reach). The answer cache is looked up
// under the version seen here, so a new catalogue is served within one poll interval.
import type { CatalogueReader } from './store/store.js';

export interface VersionWatch {
  /** The last version seen; null until the first successful poll. */
  current(): number | null;
  /** When this process first saw the current version (ms since the epoch); null before. */
  seenAt(): number | null;
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
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const version = await store.catalogueVersion();
      if (version !== current) {
        const previous = current;
        current = version;
        seenAt = Date.now();
        onChange(version, previous);
      }
    } catch {
      // The database is away: requests answer 503 meanwhile; the next poll tries again.
    } finally {
      polling = false;
    }
  };
  void poll();
  const timer = setInterval(poll, intervalMs);
  timer.unref();
  return { current: () => current, seenAt: () => seenAt, stop: () => clearInterval(timer) };
}
