// The catalogue file format `heritage-catalogue/1` (../shared/catalogue-format.md).
// Two shapes: `CatalogueFile` is what a file may hold; `Catalogue` is the normalised
// form every other layer works with (MultiPolygon only, `search_str` and `published`
// filled in). validate.ts turns the first into the second.

export const CATALOGUE_FORMAT = 'heritage-catalogue/1';

export const FEATURE_TYPES = ['WHITECHAPEL_BUILDING', 'GREATER_WHITECHAPEL', 'PLACE', 'OPEN_SPACE'] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

/** `[longitude, latitude]` */
export type Position = [number, number];
export type Ring = Position[];
export type PolygonCoordinates = Ring[];

export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: PolygonCoordinates[];
}

export interface Author {
  id: number;
  username: string;
}

export interface Category {
  id: number;
  name: string;
  description: string;
  /** Path under the media root, raw (not percent-encoded). */
  thumbnail: string;
}

export interface Site {
  id: number;
  name: string;
}

export interface Feature {
  id: number;
  feature_type: FeatureType;
  b_number: string | null;
  b_name: string | null;
  street: string | null;
  postcode: string;
  address: string;
  current: number | null;
  site: number | null;
  categories: number[];
  tags: string[];
  search_str: string;
  geometry: MultiPolygon;
}

export interface Image {
  id: number;
  feature: number;
  author: number;
  title: string;
  /** Path under the media root, raw (not percent-encoded). */
  file: string;
  description: string;
  copyright: boolean;
  created: string | null;
  published: boolean;
}

export interface Document {
  id: number;
  feature: number;
  author: number;
  title: string;
  body: string;
  created: string;
  last_edited: string;
  published: boolean;
}

export interface Media {
  id: number;
  feature: number;
  author: number;
  title: string;
  url: string;
  published: boolean;
}

/** A validated, normalised catalogue. */
export interface Catalogue {
  format: typeof CATALOGUE_FORMAT;
  authors: Author[];
  categories: Category[];
  sites: Site[];
  features: Feature[];
  images: Image[];
  documents: Document[];
  media: Media[];
}

/** One thing wrong with a catalogue file, located by its JSON path (`$` for the whole file). */
export interface Problem {
  path: string;
  message: string;
}

/** A refusal lists the first problems in file order (at most PROBLEM_LIMIT); `total` counts them all. */
export type ValidationResult = { ok: true; catalogue: Catalogue } | { ok: false; problems: Problem[]; total: number };

/** The `search_str` a feature gets when its file leaves it out. */
export function defaultSearchStr(f: Pick<Feature, 'b_number' | 'b_name' | 'street' | 'address'>): string {
  return [f.b_number, f.b_name, f.street, f.address].filter((part) => part !== null && part !== '').join(' ');
}
