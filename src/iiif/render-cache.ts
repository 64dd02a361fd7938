// Rendered IIIF pictures kept by what they are made from (the source's key, which changes
// with its bytes, and the request's canonical form), not by the catalogue's version: an
// apply that leaves a picture alone leaves its tiles kept. Least recently used out first,
// within a byte bound (IIIF_CACHE_MB). Whether a picture is public is asked at each request,
// before this is.
export interface KeptRender {
  bytes: Buffer;
  etag: string;
}

/** Per entry besides its bytes: its key and the Map's own. */
const ENTRY_OVERHEAD = 200;

export class RenderCache {
  private readonly entries = new Map<string, KeptRender>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): KeptRender | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: KeptRender): void {
    const size = entry.bytes.length + key.length * 2 + ENTRY_OVERHEAD;
    if (size > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old !== undefined) this.forget(key, old);
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [oldest, kept] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest, kept);
    }
  }

  /** Bytes held now (tests, metrics). */
  get size(): number {
    return this.bytes;
  }

  private forget(key: string, entry: KeptRender): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes.length + key.length * 2 + ENTRY_OVERHEAD;
  }
}
