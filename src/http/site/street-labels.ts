// The streets' labels (render/map-labels.ts, as the map explorer draws them) and how many
// buildings each street has, made once per catalogue version (version-memo.ts) for the
// record pages' small maps and the home page's list; a version whose streets stamp is the
// last one's (store/map/map-plans.ts) keeps the last labels, read no street again.
import { renderStreetLabels, type StreetLabel } from '../../render/map-labels.js';
import type { ServedStore } from '../../work/reads.js';
import type { VersionWatch } from '../../version-watch.js';
import { VersionMemo } from './version-memo.js';
import { streetBuildingsRead } from '../../store/map/map-reads.js';

export interface StreetIndex {
  version: number;
  labels: StreetLabel[];
  /** Each street as first written, with its buildings, by name. */
  counts: { name: string; count: number }[];
}

export class StreetLabels {
  private readonly memo: VersionMemo<StreetIndex>;
  /** The last index made, and the streets stamp it was made at: a new version whose stamp is the same has the same streets. */
  private last: { stamp: string; index: StreetIndex } | null = null;

  constructor(store: ServedStore, versions: Pick<VersionWatch, 'current'>) {
    const read = async (): Promise<StreetIndex> => {
      const last = this.last;
      const { version, stamp, streets } = await store.ask(streetBuildingsRead, last?.stamp ?? null);
      // None read only when asked with the last index's stamp.
      if (streets === null) return { ...last!.index, version };
      const index = {
        version,
        labels: renderStreetLabels(streets),
        counts: streets.map((s) => ({ name: s.name, count: s.centres.length / 2 })).sort((a, b) => a.name.localeCompare(b.name, 'en')),
      };
      this.last = stamp === null ? null : { stamp, index };
      return index;
    };
    this.memo = new VersionMemo(read, versions, () => store.catalogueVersion());
  }

  /** The index of the version served, or of a later one: made again once a record was read at a newer version. */
  index(atLeast = 0): Promise<StreetIndex> {
    return this.memo.get(atLeast);
  }
}
