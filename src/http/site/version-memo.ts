// A read the site's pages share, made once per catalogue version: the streets' labels and
// counts, the categories' names and counts. Each page would otherwise ask it again, a
// costly read of its own (at scale 10, tens of ms each).
import type { VersionWatch } from '../../version-watch.js';

export class VersionMemo<T extends { version: number }> {
  private made: Promise<T> | null = null;

  constructor(
    private readonly read: () => Promise<T>,
    /** The version this process serves; before its first poll, `storeVersion`'s. */
    private readonly versions: Pick<VersionWatch, 'current'>,
    private readonly storeVersion: () => Promise<number>,
  ) {}

  /** The value of the version served, or of a later one; read again once something was read at a newer version (`atLeast`). */
  async get(atLeast = 0): Promise<T> {
    const made = this.made === null ? null : await this.made.catch(() => null);
    if (made !== null && made.version >= atLeast && made.version >= (this.versions.current() ?? (await this.storeVersion()))) return made;
    const making = this.read();
    this.made = making;
    // A failed read is not kept: the next page asks again.
    making.catch(() => { if (this.made === making) this.made = null; });
    return making;
  }
}
