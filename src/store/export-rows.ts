// The stored catalogue read back in batches, for a streamed export: each list in id order,
// `batch` rows at a time by key (`id > last`), each row turned back into its record exactly
// as it was imported. Both stores run the same queries inside one read snapshot.
import type { Feature } from '../catalogue/format.js';
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from '../catalogue/lists.js';

export interface RecordBatch {
  list: ListName;
  records: CatalogueRecord[];
}

export const EXPORT_BATCH_ROWS = 2000;

/** A feature's category ids in their order, as one comma-separated text. */
export type CategoryListSql = (orderedIds: string) => string;
export const SQLITE_CATEGORY_LIST: CategoryListSql = (from) => `(SELECT group_concat(category_id, ',' ORDER BY position) ${from})`;
export const POSTGRES_CATEGORY_LIST: CategoryListSql = (from) => `(SELECT string_agg(category_id::text, ',' ORDER BY position) ${from})`;

function exportSql(list: ListName, categoryList: CategoryListSql): string {
  const columns: Record<ListName, string> = {
    authors: 'id, username',
    categories: 'id, name, description, thumbnail',
    sites: 'id, name',
    features: `id, feature_type, b_number, b_name, street, postcode, address, current, site_id, tags, search_str, geometry,
      ${categoryList('FROM feature_categories WHERE feature_id = features.id')} AS categories`,
    images: 'id, feature_id, author_id, title, file, description, copyright, created, published',
    documents: 'id, feature_id, author_id, title, body, created, last_edited, published',
    media: 'id, feature_id, author_id, title, url, published',
  };
  return `SELECT ${columns[list]} FROM ${list} WHERE id > $1 ORDER BY id LIMIT $2`;
}

/** Row → record, keys in the order the format writes them. */
const RECORDS: { [L in ListName]: (r: Record<string, any>) => CatalogueRecord<L> } = {
  authors: (r) => ({ id: r.id, username: r.username }),
  categories: (r) => ({ id: r.id, name: r.name, description: r.description, thumbnail: r.thumbnail }),
  sites: (r) => ({ id: r.id, name: r.name }),
  features: (r) => ({
    id: r.id, feature_type: r.feature_type as Feature['feature_type'], b_number: r.b_number, b_name: r.b_name, street: r.street,
    postcode: r.postcode, address: r.address, current: r.current, site: r.site_id,
    categories: r.categories ? String(r.categories).split(',').map(Number) : [],
    tags: JSON.parse(r.tags), search_str: r.search_str, geometry: JSON.parse(r.geometry),
  }),
  images: (r) => ({
    id: r.id, feature: r.feature_id, author: r.author_id, title: r.title, file: r.file, description: r.description,
    copyright: Boolean(r.copyright), created: r.created, published: Boolean(r.published),
  }),
  documents: (r) => ({
    id: r.id, feature: r.feature_id, author: r.author_id, title: r.title, body: r.body,
    created: r.created, last_edited: r.last_edited, published: Boolean(r.published),
  }),
  media: (r) => ({ id: r.id, feature: r.feature_id, author: r.author_id, title: r.title, url: r.url, published: Boolean(r.published) }),
};

/** Every list's records in batches, through a store's query function (inside its snapshot). */
export async function* exportBatches(
  query: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]> | Record<string, unknown>[],
  categoryList: CategoryListSql,
  batch = EXPORT_BATCH_ROWS,
): AsyncGenerator<RecordBatch> {
  for (const list of CATALOGUE_LISTS) {
    const sql = exportSql(list, categoryList);
    for (let last = 0; ; ) {
      const rows = await query(sql, [last, batch]);
      if (rows.length === 0) break;
      yield { list, records: rows.map(RECORDS[list] as (r: Record<string, unknown>) => CatalogueRecord) };
      last = rows[rows.length - 1]!['id'] as number;
      if (rows.length < batch) break;
    }
  }
}
