// Synchronous reads of the SQLite store, with every statement prepared once.
// A page costs a fixed number of queries, never one per record.
import type Database from 'better-sqlite3';
import {
  groupCategories,
  groupSummaries,
  toDocumentRow,
  toFeatureRow,
  toImageRow,
  toMediaRow,
  type FeatureExtras,
  type FlatCategory,
  type FlatFeature,
  type FlatSummary,
} from './rows.js';
import {
  SELECT_CATEGORIES,
  byId,
  byPosition,
  selectFeatures,
  selectRecords,
  selectSummaries,
  toSqlite,
  type RecordCollection,
} from './sql.js';
import type { ChooseSlice, CollectionName, FeatureRow, Listing, RowsByCollection } from './store.js';

type Mapper = (row: never) => unknown;
const RECORD_MAPPERS: Record<RecordCollection, Mapper> = {
  images: toImageRow as Mapper,
  documents: toDocumentRow as Mapper,
  media: toMediaRow as Mapper,
};

export interface SqliteReads {
  list<C extends CollectionName, T>(collection: C, choose: ChooseSlice<T>): Listing<RowsByCollection[C], T>;
  get<C extends CollectionName>(collection: C, id: number): RowsByCollection[C] | null;
}

export function readSqlite(db: Database.Database): SqliteReads {
  const prepare = (sql: string) => db.prepare(toSqlite(sql));
  const countStatement = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const featurePage = prepare(selectFeatures(byPosition('f')));
  const featureById = prepare(selectFeatures(byId('f')));
  const categories = prepare(SELECT_CATEGORIES);
  const summaries = {
    documents: prepare(selectSummaries('documents')),
    images: prepare(selectSummaries('images')),
    media: prepare(selectSummaries('media')),
  };
  const recordPage = recordStatements((c) => prepare(selectRecords(c, byPosition('x'))));
  const recordById = recordStatements((c) => prepare(selectRecords(c, byId('x'))));

  function featureRows(flat: FlatFeature[]): FeatureRow[] {
    const first = flat[0];
    const last = flat[flat.length - 1];
    if (!first || !last) return [];
    const range = [first.id, last.id];
    const extras: FeatureExtras = {
      categories: groupCategories(categories.all(range) as FlatCategory[]),
      documents: groupSummaries(summaries.documents.all(range) as FlatSummary[]),
      images: groupSummaries(summaries.images.all(range) as FlatSummary[]),
      media: groupSummaries(summaries.media.all(range) as FlatSummary[]),
    };
    return flat.map((f) => toFeatureRow(f, extras));
  }

  function rows(collection: CollectionName, flat: unknown[]): unknown[] {
    if (collection === 'features') return featureRows(flat as FlatFeature[]);
    return flat.map((r) => RECORD_MAPPERS[collection](r as never));
  }

  return {
    list(collection, choose) {
      const count = Number(countStatement.get(`count.${collection}`) ?? 0);
      const chosen = choose(count);
      if (!chosen) return { count, page: null };
      const { offset, limit } = chosen.slice;
      const statement = collection === 'features' ? featurePage : recordPage[collection as RecordCollection];
      const flat = statement.all(offset, offset + limit);
      return { count, page: { rows: rows(collection, flat) as never[], context: chosen.context } };
    },
    get(collection, id) {
      const statement = collection === 'features' ? featureById : recordById[collection as RecordCollection];
      const flat = statement.get(id);
      return flat === undefined ? null : (rows(collection, [flat])[0] as never);
    },
  };
}

function recordStatements<S>(make: (c: RecordCollection) => S): Record<RecordCollection, S> {
  return { images: make('images'), documents: make('documents'), media: make('media') };
}
