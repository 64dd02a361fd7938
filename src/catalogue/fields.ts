// Every list's fields, declared once: the key a file and a record use (in the order a file
// writes them), the column that keeps it, how it is kept, whether a record is found by it,
// and which wire rows carry it as stored. The file shape itself is schema.ts (with its
// messages); the store's column lists and record ↔ row mappings derive from here
// (store/record-columns.ts), as do the rows the render layer gets (store/store.ts).
import type { CatalogueRecord, ListName } from './lists.js';

/**
 * How a value is kept: as it is; a boolean (0/1 in SQLite); a JSON text (tags, geometry);
 * or rows of a table of its own (a feature's categories, `feature_categories`), read back
 * as a comma-separated list of ids.
 */
export type Storage = 'value' | 'boolean' | 'json' | 'rows';

/**
 * Which text a record is found by: `text`, its own; `name`, its own and that of the records
 * attached to it (a feature's names); `html`, its own once the markup is taken out.
 */
export type Search = 'text' | 'name' | 'html';

/** The wire rows (store.ts) that carry a field as stored: a listed feature, a nested one, a record. */
export type WireForm = 'listed' | 'nested' | 'record';

export interface FieldSpec {
  /** The column, when it is not named as the key. */
  readonly column?: string;
  readonly storage?: Storage;
  readonly search?: Search;
  readonly wire?: readonly WireForm[];
}

type Declaration = { readonly [L in ListName]: { readonly [K in keyof CatalogueRecord<L>]-?: FieldSpec } };

const FEATURE_FORMS = ['listed', 'nested'] as const;
const LISTED = ['listed'] as const;
const NESTED = ['nested'] as const;
const RECORD = ['record'] as const;
const FEATURE_ID = { column: 'feature_id' } as const;
const AUTHOR_ID = { column: 'author_id' } as const;
const PUBLISHED = { storage: 'boolean' } as const;

/** Keys in file order: a record read back from its row is written with its keys in this order. */
export const FIELDS = {
  authors: { id: {}, username: {} },
  // A category's name is found in the features in it.
  categories: { id: {}, name: { search: 'text' }, description: {}, thumbnail: {} },
  sites: { id: {}, name: {} },
  features: {
    id: { wire: FEATURE_FORMS },
    feature_type: { wire: FEATURE_FORMS },
    b_number: { search: 'text', wire: FEATURE_FORMS },
    b_name: { search: 'name', wire: FEATURE_FORMS },
    street: { search: 'text', wire: FEATURE_FORMS },
    postcode: { search: 'text', wire: LISTED },
    address: { search: 'name', wire: FEATURE_FORMS },
    current: { wire: LISTED },
    site: { column: 'site_id' },
    categories: { storage: 'rows' },
    tags: { storage: 'json', search: 'text', wire: NESTED },
    search_str: { search: 'text', wire: NESTED },
    geometry: { storage: 'json' },
  },
  images: {
    id: { wire: RECORD },
    feature: FEATURE_ID,
    author: AUTHOR_ID,
    title: { search: 'text', wire: RECORD },
    file: { wire: RECORD },
    description: { search: 'text', wire: RECORD },
    copyright: { storage: 'boolean', wire: RECORD },
    created: { wire: RECORD },
    published: PUBLISHED,
  },
  documents: {
    id: { wire: RECORD },
    feature: FEATURE_ID,
    author: AUTHOR_ID,
    title: { search: 'text', wire: RECORD },
    body: { search: 'html', wire: RECORD },
    created: { wire: RECORD },
    last_edited: { wire: RECORD },
    published: PUBLISHED,
  },
  media: {
    id: { wire: RECORD },
    feature: FEATURE_ID,
    author: AUTHOR_ID,
    title: { search: 'text', wire: RECORD },
    url: { wire: RECORD },
    published: PUBLISHED,
  },
} as const satisfies Declaration;

type Declared = typeof FIELDS;

/** The keys of a list that a wire form carries as stored. */
export type WireKeys<L extends ListName, F extends WireForm> = {
  [K in keyof Declared[L]]: Declared[L][K] extends { readonly wire: readonly (infer W)[] } ? (F extends W ? K : never) : never;
}[keyof Declared[L]] &
  keyof CatalogueRecord<L>;

/** A record's fields that a wire form carries as stored. */
export type WireFields<L extends ListName, F extends WireForm> = Pick<CatalogueRecord<L>, WireKeys<L, F>>;

/** One field, with its column named. */
export interface Field {
  readonly key: string;
  readonly column: string;
  readonly storage: Storage;
  readonly search: Search | null;
  readonly wire: readonly WireForm[];
}

function resolve(key: string, spec: FieldSpec): Field {
  return { key, column: spec.column ?? key, storage: spec.storage ?? 'value', search: spec.search ?? null, wire: spec.wire ?? [] };
}

function resolveAll(specs: Readonly<Record<string, FieldSpec>>): readonly Field[] {
  return Object.entries(specs).map(([key, spec]) => resolve(key, spec));
}

const RESOLVED: Readonly<Record<ListName, readonly Field[]>> = {
  authors: resolveAll(FIELDS.authors),
  categories: resolveAll(FIELDS.categories),
  sites: resolveAll(FIELDS.sites),
  features: resolveAll(FIELDS.features),
  images: resolveAll(FIELDS.images),
  documents: resolveAll(FIELDS.documents),
  media: resolveAll(FIELDS.media),
};

/** A list's fields in file order. */
export function fieldsOf(list: ListName): readonly Field[] {
  return RESOLVED[list];
}

/**
 * The feature fields that code elsewhere reaches by what they mean, each key spelled once
 * here: a renamed field changes this table, the file's shape (schema.ts) and the stores'
 * schemas, and every face follows (test/unit/field-names.test.ts holds the spellings).
 */
export const FEATURE_KEYS = {
  type: 'feature_type',
  number: 'b_number',
  name: 'b_name',
  street: 'street',
  postalCode: 'postcode',
  address: 'address',
  year: 'current',
  searchText: 'search_str',
} as const satisfies Readonly<Record<string, keyof Declared['features']>>;

/** A document's fields reached by meaning, as FEATURE_KEYS. */
export const DOCUMENT_KEYS = {
  lastEdited: 'last_edited',
} as const satisfies Readonly<Record<string, keyof Declared['documents']>>;

/**
 * Whether a building's street is one to show by name (the spec: a street "may be empty string
 * or null"): not null, nor written empty or as spaces. No search finds the buildings of such
 * a "street", so the home page does not list it and the map writes no label for it.
 */
export function isNamedStreet(street: string | null): street is string {
  return street !== null && street.trim() !== '';
}
