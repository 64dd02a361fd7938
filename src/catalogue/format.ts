// The catalogue file format `heritage-catalogue/1` (../shared/catalogue-format.md).
// Two shapes: `CatalogueFile` is what a file may hold; `Catalogue` is the normalised
// form every other layer works with (MultiPolygon only, `search_str` and `published`
// filled in). validate.ts turns the first into the second. The records' keys and types are
// those of the file's schema (schema.ts), not written again here.
import { FEATURE_KEYS as F } from './fields.js';
import type { CatalogueFile } from './schema.js';

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

type FileRecord<L extends keyof CatalogueFile> = CatalogueFile[L][number];
/** A record's `published`, optional in a file, is always known once normalised. */
type Published<R> = Omit<R, 'published'> & { published: boolean };

// The records as schema.ts declares them, with what normalisation fills in.
export type Author = FileRecord<'authors'>;
/** `thumbnail`: a path under the media root, raw (not percent-encoded). */
export type Category = FileRecord<'categories'>;
export type Site = FileRecord<'sites'>;
export type Feature = Omit<FileRecord<'features'>, 'search_str' | 'geometry'> & { search_str: string; geometry: MultiPolygon };
/** `file`: a path under the media root, raw (not percent-encoded). */
export type Image = Published<FileRecord<'images'>>;
export type Document = Published<FileRecord<'documents'>>;
export type Media = Published<FileRecord<'media'>>;

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
export function defaultSearchStr(f: Pick<Feature, typeof F.number | typeof F.name | typeof F.street | typeof F.address>): string {
  return [f[F.number], f[F.name], f[F.street], f[F.address]].filter((part) => part !== null && part !== '').join(' ');
}
