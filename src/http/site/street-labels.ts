// The streets' labels (render/map-labels.ts, as the map explorer draws them) and how many
// buildings each street has, made once per catalogue version for the record pages' small
// maps and the home page's list: at scale 10 they take tens of ms.
import { renderStreetLabels, type StreetLabel } from '../../render/map-labels.js';
import type { CatalogueReader } from '../../store/store.js';

export interface StreetIndex {
  version: number;
  labels: StreetLabel[];
  /** Each street as first written, with its buildings, by name. */
  counts: { name: string; count: number }[];
}

export class StreetLabels {
  private made: Promise<StreetIndex> | null = null;

  constructor(private readonly store: CatalogueReader) {}

  /** The index of the version read, or of a later one: made again once a record was read at a newer version. */
  async index(atLeast = 0): Promise<StreetIndex> {
    const made = this.made === null ? null : await this.made.catch(() => null);
    if (made !== null && made.version >= atLeast && made.version >= (await this.store.catalogueVersion())) return made;
    const making = this.store.streetBuildings().then(({ version, streets }) => ({
      version,
      labels: renderStreetLabels(streets),
      counts: streets.map((s) => ({ name: s.name, count: s.centres.length / 2 })).sort((a, b) => a.name.localeCompare(b.name, 'en')),
    }));
    this.made = making;
    making.catch(() => { if (this.made === making) this.made = null; });
    return making;
  }
}
