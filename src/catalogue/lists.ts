// The seven lists of a catalogue file, in the order files are written.
import type { Catalogue } from './format.js';

export const CATALOGUE_LISTS = ['authors', 'categories', 'sites', 'features', 'images', 'documents', 'media'] as const;
export type ListName = (typeof CATALOGUE_LISTS)[number];

const LIST_NAMES: ReadonlySet<string> = new Set(CATALOGUE_LISTS);

export const isListName = (name: string): name is ListName => LIST_NAMES.has(name);

/** A normalised record of a list. */
export type CatalogueRecord<L extends ListName = ListName> = Catalogue[L][number];

/**
 * Whether a value read back from the store's own JSON of a record (a change's before and
 * after) is one: an object with an id. Its other fields are as the store wrote them.
 */
export const isKeptRecord = (value: unknown): value is CatalogueRecord => typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'number';

/** One value per list, keys in file order: a list-keyed object made without a loop's assertion. */
export function perList<V>(make: (list: ListName) => V): Record<ListName, V> {
  return {
    authors: make('authors'), categories: make('categories'), sites: make('sites'), features: make('features'),
    images: make('images'), documents: make('documents'), media: make('media'),
  };
}

/** Where normalised records go as they pass their checks (a store's writer, or a list). */
export interface CatalogueSink {
  add<L extends ListName>(list: L, record: CatalogueRecord<L>): void;
}

/** Every record of an in-memory catalogue into a sink, list by list in file order. */
export function feedCatalogue(catalogue: Catalogue, sink: CatalogueSink): void {
  for (const list of CATALOGUE_LISTS) for (const record of catalogue[list]) sink.add(list, record);
}
