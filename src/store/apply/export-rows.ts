// The stored catalogue read back in batches, for a streamed export: each list in id order,
// `batch` rows at a time by key (`id > last`), each row turned back into its record exactly
// as it was imported (record-columns.ts). Both stores run the same queries inside one read
// snapshot; SQLite's schema upgrade reads an older file through the same query, whole.
import { CATALOGUE_FORMAT, type Catalogue } from '../../catalogue/format.js';
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from '../../catalogue/lists.js';
import type { Dialect } from '../dialect.js';
import { recordColumnList, recordFromRow } from '../record-columns.js';

export interface RecordBatch {
  list: ListName;
  records: CatalogueRecord[];
}

export const EXPORT_BATCH_ROWS = 2000;

/** A list's records after id `$1`, at most `$2` of them, in id order. */
export function exportSql(list: ListName, dialect: Dialect): string {
  return `SELECT ${recordColumnList(list, list, dialect.categoryIds)} FROM ${list} WHERE id > $1 ORDER BY id LIMIT $2`;
}

type Rows = Readonly<Record<string, unknown>>[];

/** Every list's records in batches, through a store's query function (inside its snapshot). */
export async function* exportBatches(
  query: (sql: string, params: unknown[]) => Promise<Rows> | Rows,
  dialect: Dialect,
  batch = EXPORT_BATCH_ROWS,
): AsyncGenerator<RecordBatch> {
  for (const list of CATALOGUE_LISTS) {
    const sql = exportSql(list, dialect);
    for (let last = 0; ; ) {
      const rows = await query(sql, [last, batch]);
      const records = rows.map((row) => recordFromRow(list, row));
      const lastRecord = records[records.length - 1];
      if (!lastRecord) break;
      yield { list, records };
      last = lastRecord.id;
      if (rows.length < batch) break;
    }
  }
}

/** The whole stored catalogue at once, through a synchronous query function (SQLite's schema upgrade). */
export function readCatalogue(query: (sql: string, params: unknown[]) => Rows, dialect: Dialect): Catalogue {
  // LIMIT -1: SQLite's "no limit".
  const read = <L extends ListName>(list: L) => query(exportSql(list, dialect), [0, -1]).map((row) => recordFromRow(list, row));
  return {
    format: CATALOGUE_FORMAT,
    authors: read('authors'),
    categories: read('categories'),
    sites: read('sites'),
    features: read('features'),
    images: read('images'),
    documents: read('documents'),
    media: read('media'),
  };
}
