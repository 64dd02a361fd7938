// The catalogue as table rows, and back. Both stores load and dump through these, so the
// derived columns (position, item_count) are computed in exactly one place.
import { CATALOGUE_FORMAT, type Catalogue, type Feature } from '../catalogue/format.js';
import { foldText } from '../search/text.js';
import { searchTables } from './search-tables.js';

export interface FeatureTableRow {
  id: number;
  position: number;
  feature_type: string;
  b_number: string | null;
  b_name: string | null;
  street: string | null;
  postcode: string;
  address: string;
  current: number | null;
  site_id: number | null;
  tags: string;
  search_str: string;
  geometry: string;
  item_count: number;
  /** street and postcode folded (lower case, no accents) for case-insensitive matching. */
  street_key: string | null;
  postcode_key: string;
}

/** The folded text a record is found by with `q`. */
export interface SearchRow {
  id: number;
  text: string;
}

interface Attached {
  id: number;
  feature: number;
  published: boolean;
}

export interface AttachedTableRow {
  id: number;
  position: number | null;
  feature_id: number;
  author_id: number;
  published: boolean;
}

export interface CatalogueTables {
  authors: Catalogue['authors'];
  categories: Catalogue['categories'];
  sites: Catalogue['sites'];
  features: FeatureTableRow[];
  feature_categories: { feature_id: number; position: number; category_id: number }[];
  images: (AttachedTableRow & Omit<Catalogue['images'][number], 'id' | 'feature' | 'author' | 'published'>)[];
  documents: (AttachedTableRow & Omit<Catalogue['documents'][number], 'id' | 'feature' | 'author' | 'published'>)[];
  media: (AttachedTableRow & Omit<Catalogue['media'][number], 'id' | 'feature' | 'author' | 'published'>)[];
  /** Tags folded, one row per feature and tag, for the `tags` filter. */
  feature_tags: { feature_id: number; tag: string }[];
  features_search: SearchRow[];
  images_search: SearchRow[];
  documents_search: SearchRow[];
  media_search: SearchRow[];
}

const byId = <T extends { id: number }>(list: readonly T[]): T[] => [...list].sort((a, b) => a.id - b.id);

export function toTables(catalogue: Catalogue): CatalogueTables {
  const counts = countPublished([...catalogue.images, ...catalogue.documents, ...catalogue.media]);
  const features = byId(catalogue.features);
  return {
    ...searchTables(catalogue),
    feature_tags: features.flatMap((f) => [...new Set(f.tags.map(foldText))].map((tag) => ({ feature_id: f.id, tag }))),
    authors: byId(catalogue.authors),
    categories: byId(catalogue.categories),
    sites: byId(catalogue.sites),
    features: features.map((f, position) => featureTableRow(f, position, counts.get(f.id) ?? 0)),
    feature_categories: features.flatMap((f) =>
      f.categories.map((category_id, position) => ({ feature_id: f.id, position, category_id })),
    ),
    images: attachedRows(catalogue.images),
    documents: attachedRows(catalogue.documents),
    media: attachedRows(catalogue.media),
  };
}

function countPublished(records: Attached[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const r of records) if (r.published) counts.set(r.feature, (counts.get(r.feature) ?? 0) + 1);
  return counts;
}

function featureTableRow(f: Feature, position: number, item_count: number): FeatureTableRow {
  const { categories: _categories, site, tags, geometry, ...fields } = f;
  return {
    ...fields, position, site_id: site, tags: JSON.stringify(tags), geometry: JSON.stringify(geometry), item_count,
    street_key: f.street === null ? null : foldText(f.street), postcode_key: foldText(f.postcode),
  };
}

/** Published records get consecutive positions in id order; unpublished ones none. */
function attachedRows<R extends Attached & { author: number }>(records: readonly R[]) {
  let position = 0;
  return byId(records).map(({ feature, author, published, ...rest }) => ({
    ...rest,
    feature_id: feature,
    author_id: author,
    published,
    position: published ? position++ : null,
  }));
}

/** Rows as a store reads them back (booleans may come back as 0/1). */
export interface StoredTables {
  authors: Catalogue['authors'];
  categories: Catalogue['categories'];
  sites: Catalogue['sites'];
  features: Omit<FeatureTableRow, 'position' | 'item_count'>[];
  feature_categories: { feature_id: number; category_id: number }[];
  images: Record<string, unknown>[];
  documents: Record<string, unknown>[];
  media: Record<string, unknown>[];
}

/** Rebuild the catalogue from its tables; inputs are in id (and category position) order. */
export function fromTables(t: StoredTables): Catalogue {
  const categoriesOf = new Map<number, number[]>();
  for (const fc of t.feature_categories) {
    const list = categoriesOf.get(fc.feature_id) ?? [];
    list.push(fc.category_id);
    categoriesOf.set(fc.feature_id, list);
  }
  return {
    format: CATALOGUE_FORMAT,
    authors: t.authors.map(({ id, username }) => ({ id, username })),
    categories: t.categories.map(({ id, name, description, thumbnail }) => ({ id, name, description, thumbnail })),
    sites: t.sites.map(({ id, name }) => ({ id, name })),
    features: t.features.map((f) => ({
      id: f.id,
      feature_type: f.feature_type as Feature['feature_type'],
      b_number: f.b_number,
      b_name: f.b_name,
      street: f.street,
      postcode: f.postcode,
      address: f.address,
      current: f.current,
      site: f.site_id,
      categories: categoriesOf.get(f.id) ?? [],
      tags: JSON.parse(f.tags),
      search_str: f.search_str,
      geometry: JSON.parse(f.geometry),
    })),
    images: t.images.map((r) => ({
      ...attachedFields(r), file: r.file as string, description: r.description as string,
      copyright: Boolean(r.copyright), created: r.created as string | null, published: Boolean(r.published),
    })),
    documents: t.documents.map((r) => ({
      ...attachedFields(r), body: r.body as string, created: r.created as string,
      last_edited: r.last_edited as string, published: Boolean(r.published),
    })),
    media: t.media.map((r) => ({ ...attachedFields(r), url: r.url as string, published: Boolean(r.published) })),
  };
}

function attachedFields(r: Record<string, unknown>) {
  return { id: r.id as number, feature: r.feature_id as number, author: r.author_id as number, title: r.title as string };
}

/** Children before parents, for stores that check references while deleting. */
export const CATALOGUE_TABLES_IN_DELETE_ORDER = [
  'features_search', 'images_search', 'documents_search', 'media_search', 'feature_tags',
  'feature_categories', 'images', 'documents', 'media', 'features', 'categories', 'sites', 'authors',
] as const;

/** What each collection's `count` is: every feature, published records only. */
export function collectionCounts(tables: CatalogueTables): Record<'features' | 'images' | 'documents' | 'media', number> {
  const published = (rows: readonly { published: boolean }[]) => rows.filter((r) => r.published).length;
  return {
    features: tables.features.length,
    images: published(tables.images),
    documents: published(tables.documents),
    media: published(tables.media),
  };
}

/** How each store reads its tables back for export, in the order fromTables expects. */
export const STORED_TABLE_QUERIES: Record<keyof StoredTables, string> = {
  authors: 'SELECT id, username FROM authors ORDER BY id',
  categories: 'SELECT id, name, description, thumbnail FROM categories ORDER BY id',
  sites: 'SELECT id, name FROM sites ORDER BY id',
  features: `SELECT id, feature_type, b_number, b_name, street, postcode, address, current, site_id, tags,
    search_str, geometry FROM features ORDER BY id`,
  feature_categories: 'SELECT feature_id, category_id FROM feature_categories ORDER BY feature_id, position',
  images: 'SELECT * FROM images ORDER BY id',
  documents: 'SELECT * FROM documents ORDER BY id',
  media: 'SELECT * FROM media ORDER BY id',
};
