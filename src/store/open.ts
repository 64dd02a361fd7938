// Picks the store from the database setting.
import { openSqliteStore } from './sqlite.js';
import { StoreError, type CatalogueStore } from './store.js';

export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

export async function openStore(database: string, options: { create?: boolean } = {}): Promise<CatalogueStore> {
  if (isPostgresUrl(database)) {
    throw new StoreError('PostgreSQL databases are not supported by this version yet; use a SQLite file path.');
  }
  return openSqliteStore(database, options);
}
