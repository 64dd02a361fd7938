// A valid file → the `Catalogue` the rest of the service works with: fresh objects holding
// only the declared keys (fields.ts), in file order, defaults filled in, geometry a
// MultiPolygon. Lists keep their order.
import { FEATURE_KEYS, fieldsOf } from './fields.js';
import { defaultSearchStr } from './format.js';
import { toMultiPolygon } from './geometry.js';
import type { CatalogueRecord, ListName } from './lists.js';
import type { CatalogueFile } from './schema.js';

type Fill<L extends ListName> = (value: CatalogueFile[L][number]) => Partial<CatalogueRecord<L>>;

const published = ({ published }: { published?: boolean }) => ({ published: published ?? true });

/** What a record gets beyond its file's values: copies of lists, defaults, the geometry's one form. */
const FILLS: { readonly [L in ListName]: Fill<L> } = {
  authors: () => ({}),
  categories: () => ({}),
  sites: () => ({}),
  features: (f) => ({
    categories: [...f.categories],
    tags: [...f.tags],
    [FEATURE_KEYS.searchText]: f[FEATURE_KEYS.searchText] ?? defaultSearchStr(f),
    geometry: toMultiPolygon(f.geometry),
  }),
  images: published,
  documents: published,
  media: published,
};

/** One record that passed its checks (the schema's, so it is a file record of its list) → its normalised form. */
export function normaliseRecord<L extends ListName>(list: L, value: unknown): CatalogueRecord<L> {
  const checked = value as CatalogueFile[L][number];
  const given: Readonly<Record<string, unknown>> = checked;
  const record: Record<string, unknown> = {};
  for (const { key } of fieldsOf(list)) record[key] = given[key];
  // Every declared key is now set (the schema requires all but those the fill supplies).
  return Object.assign(record, FILLS[list](checked)) as CatalogueRecord<L>;
}
