// The streets' labels (render/map-labels.ts, as the map explorer draws them) and how many
// buildings each street has, made once per catalogue version (version-memo.ts) for the
// record pages' small maps and the home page's list.
import { renderStreetLabels, type StreetLabel } from '../../render/map-labels.js';
import type { CatalogueReader } from '../../store/store.js';
import type { VersionWatch } from '../../version-watch.js';
import { VersionMemo } from './version-memo.js';

export interface StreetIndex {
  version: number;
  labels: StreetLabel[];
  /** Each street as first written, with its buildings, by name. */
  counts: { name: string; count: number }[];
}

export class StreetLabels {
  private readonly memo: VersionMemo<StreetIndex>;

  constructor(store: CatalogueReader, versions: Pick<VersionWatch, 'current'>) {
    const read = () => store.streetBuildings().then(({ version, streets }) => ({
      version,
      labels: renderStreetLabels(streets),
      counts: streets.map((s) => ({ name: s.name, count: s.centres.length / 2 })).sort((a, b) => a.name.localeCompare(b.name, 'en')),
    }));
    this.memo = new VersionMemo(read, versions, () => store.catalogueVersion());
  }

  /** The index of the version served, or of a later one: made again once a record was read at a newer version. */
  index(atLeast = 0): Promise<StreetIndex> {
    return this.memo.get(atLeast);
  }
}
