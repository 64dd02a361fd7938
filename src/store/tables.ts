// Table rows back into the catalogue (SQLite's schema upgrade reads an older file this way) and the
// tables' delete order. Records become rows in catalogue-rows.ts.
import { CATALOGUE_FORMAT, type Catalogue, type Feature } from '../catalogue/format.js';

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
