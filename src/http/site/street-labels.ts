// The streets' labels (as the map explorer draws them) and how many buildings each street
// has, as the store keeps them (a row a street: store/apply/street-label-upkeep.ts), read
// once per catalogue version (version-memo.ts) for the record pages' small maps and the
// home page's list.
import type { StreetLabel } from '../../store/apply/street-labels.js';
import type { ServedStore } from '../../work/reads.js';
import type { VersionWatch } from '../../version-watch.js';
import { VersionMemo } from './version-memo.js';
import { streetLabelsRead } from '../../store/map/map-reads.js';

export interface StreetIndex {
  version: number;
  labels: StreetLabel[];
  /** Each street as first written, with its buildings, by name. */
  counts: { name: string; count: number }[];
}

export class StreetLabels {
  private readonly memo: VersionMemo<StreetIndex>;

  constructor(store: ServedStore, versions: Pick<VersionWatch, 'current'>) {
    const read = async (): Promise<StreetIndex> => {
      const { version, streets } = await store.ask(streetLabelsRead);
      return {
        version,
        labels: streets.flatMap((s) => s.labels),
        counts: streets.map((s) => ({ name: s.name, count: s.buildings })).sort((a, b) => a.name.localeCompare(b.name, 'en')),
      };
    };
    this.memo = new VersionMemo(read, versions, () => store.catalogueVersion());
  }

  /** The index of the version served, or of a later one: made again once a record was read at a newer version. */
  index(atLeast = 0): Promise<StreetIndex> {
    return this.memo.get(atLeast);
  }
}
