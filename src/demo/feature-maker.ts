// What every kind of demo feature is made with: one random source, the streets, postcode
// units shared by neighbours, and the names already given (a building's name is unique).
import { defaultSearchStr, type Feature } from '../catalogue/format.js';
import { Line, toMultiPolygon, type Frame, type Shape } from './geometry.js';
import { STREETS, UNIT_LETTERS, type SiteDef, type StreetDef } from './places.js';
import type { Rng } from './random.js';
import type { Subject } from './text.js';
import * as W from './words.js';

/** A feature before it has an id, with what the attachment and text generators need. */
export interface Draft {
  feature: Feature;
  subject: Subject;
  /** How likely the feature is to have images, documents and media (0: never). */
  weight: number;
}

export interface StreetLine {
  st: StreetDef;
  line: Line;
}

/** A site of the demo with its id and how many buildings it has. */
export interface ActiveSite {
  def: SiteDef;
  id: number;
  size: number;
}

export type FeatureFields = Omit<Feature, 'id' | 'search_str' | 'geometry'>;

export class FeatureMaker {
  readonly streets: ReadonlyMap<string, StreetLine> = new Map(STREETS.map((st) => [st.name, { st, line: new Line(st.pts) }]));
  /** Names given so far: sites' buildings from the start. */
  readonly usedNames: Set<string>;
  private readonly units = new Map<string, string>();
  private readonly siteIds: ReadonlyMap<string, number>;
  private unnamed = 0;

  constructor(
    readonly rng: Rng,
    readonly sites: readonly ActiveSite[],
    private readonly categoryIds: ReadonlyMap<string, number>,
  ) {
    this.siteIds = new Map(sites.map((s) => [s.def.name, s.id]));
    this.usedNames = new Set(sites.flatMap((site) => site.def.buildings));
  }

  /** Neighbours share a postcode unit: one per 24 numbers of a street side. */
  postcode(street: StreetDef, side: number, seq: number): string {
    const key = `${street.name}|${side}|${Math.floor(seq / 24)}`;
    let unit = this.units.get(key);
    if (unit === undefined) this.units.set(key, (unit = this.rng.chars(UNIT_LETTERS, 2)));
    return `${street.sector}${unit}`;
  }

  category(name: string): number {
    return known(this.categoryIds, name, 'category');
  }

  siteId(name: string): number {
    return known(this.siteIds, name, 'site');
  }

  /** A street by name; Whitechapel Road for one the map does not have. */
  onStreet(name: string): StreetLine {
    return this.streets.get(name) ?? known(this.streets, 'Whitechapel Road', 'street');
  }

  /** The feature with its search text (`rich` words added to the default) and footprint. */
  finish(fields: FeatureFields, shape: Shape, frame: Frame, rich: string | null): Feature {
    const base = defaultSearchStr(fields);
    return { id: 0, ...fields, search_str: rich === null ? base : `${base} ${rich}`, geometry: this.geometry(shape, frame) };
  }

  /** Up to four tags, the `first` candidates (when not null) likelier than the rest. */
  tags(first: readonly (string | null)[]): string[] {
    const { rng } = this;
    const want = rng.weighted([[40, 0], [25, 1], [20, 2], [10, 3], [5, 4]]);
    const tags: string[] = [];
    for (const t of [...first.filter((x): x is string => x !== null && rng.chance(0.6)), ...Array.from({ length: 4 }, () => rng.pick(W.TAGS))]) {
      if (tags.length >= want) break;
      if (!tags.includes(t)) tags.push(t);
    }
    return tags;
  }

  /** A building's year, mostly Victorian; sometimes unknown. */
  year(): number | null {
    const { rng } = this;
    if (rng.chance(0.12)) return null;
    const [lo, hi] = rng.weighted([[5, [1650, 1749]], [20, [1750, 1839]], [45, [1840, 1913]], [12, [1914, 1959]], [18, [1960, 2015]]] as const);
    return rng.int(lo, hi);
  }

  /** An unnamed building's b_name is "" or null, as in the original (the first two show both). */
  noName(): string | null {
    this.unnamed++;
    if (this.unnamed <= 2) return this.unnamed === 1 ? '' : null;
    return this.rng.chance(0.55) ? '' : null;
  }

  /** Coordinates written with 14–16 decimals, as the original's were. */
  private geometry(shape: Shape, frame: Frame): Feature['geometry'] {
    const lonDigits = this.rng.pick([14, 15, 16]);
    const latDigits = this.rng.pick([14, 14, 15]);
    return toMultiPolygon(shape, frame, lonDigits, latDigits);
  }
}

function known<V>(map: ReadonlyMap<string, V>, name: string, what: string): V {
  const value = map.get(name);
  if (value === undefined) throw new Error(`the demo has no ${what} named ${name}`);
  return value;
}
