// The embedded store: one SQLite file through better-sqlite3. Reads run inside a
// transaction so that a page's count and rows come from one catalogue version even while
// another process imports into the same file (WAL mode).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Catalogue } from '../catalogue/format.js';
import { readSqlite, type SqliteReads } from './sqlite-read.js';
import { SQLITE_SCHEMA, SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';
import { fromTables, toTables, type StoredTables } from './tables.js';
import {
  StoreError,
  type CatalogueStore,
  type ChooseSlice,
  type CollectionName,
  type Listing,
  type RowsByCollection,
} from './store.js';

export interface SqliteOpenOptions {
  /** Create the file and its tables when missing (import); otherwise it must exist (serve, export). */
  create?: boolean;
}

export function openSqliteStore(file: string, options: SqliteOpenOptions = {}): SqliteStore {
  const create = options.create ?? false;
  if (!create && !fs.existsSync(file)) {
    throw new StoreError(`The database ${file} does not exist: import a catalogue into it first (heritage-api import FILE --db ${file}).`);
  }
  if (create) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: !create });
    db.pragma('busy_timeout = 5000');
    if (create) prepareSchema(db);
    checkSchema(db, file);
    db.pragma('journal_mode = WAL');
    return new SqliteStore(db);
  } catch (error) {
    db?.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(`The database ${file} cannot be read: ${(error as Error).message}.`);
  }
}

function prepareSchema(db: Database.Database): void {
  db.exec(SQLITE_SCHEMA);
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema_version', SQLITE_SCHEMA_VERSION);
}

function checkSchema(db: Database.Database, file: string): void {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  const version = hasMeta
    ? (db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined)
    : undefined;
  if (!version) throw new StoreError(`The database ${file} is not a heritage-api catalogue.`);
  if (version.value !== SQLITE_SCHEMA_VERSION) {
    throw new StoreError(`The database ${file} has schema version ${version.value}; this heritage-api reads version ${SQLITE_SCHEMA_VERSION}.`);
  }
}

const TABLES = ['feature_categories', 'images', 'documents', 'media', 'features', 'categories', 'sites', 'authors'] as const;

export class SqliteStore implements CatalogueStore {
  private readonly reads: SqliteReads;

  constructor(private readonly db: Database.Database) {
    this.reads = readSqlite(db);
  }

  async list<C extends CollectionName, T>(collection: C, choose: ChooseSlice<T>): Promise<Listing<RowsByCollection[C], T>> {
    return this.db.transaction(() => this.reads.list(collection, choose))();
  }

  async get<C extends CollectionName>(collection: C, id: number): Promise<RowsByCollection[C] | null> {
    return this.db.transaction(() => this.reads.get(collection, id))();
  }

  async replaceCatalogue(catalogue: Catalogue): Promise<void> {
    const tables = toTables(catalogue);
    this.db.transaction(() => {
      for (const table of TABLES) this.db.prepare(`DELETE FROM ${table}`).run();
      for (const [table, rows] of Object.entries(tables)) insertRows(this.db, table, rows);
      this.db.prepare("INSERT INTO meta (key, value) VALUES ('catalogue_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1").run();
      for (const name of ['features', 'images', 'documents', 'media'] as const) {
        const count = name === 'features' ? tables.features.length : tables[name].filter((r) => r.published).length;
        this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(`count.${name}`, String(count));
      }
    }).immediate();
  }

  async readCatalogue(): Promise<Catalogue> {
    return this.db.transaction(() => {
      const all = (sql: string) => this.db.prepare(sql).all() as never[];
      const tables: StoredTables = {
        authors: all('SELECT * FROM authors ORDER BY id'),
        categories: all('SELECT * FROM categories ORDER BY id'),
        sites: all('SELECT * FROM sites ORDER BY id'),
        features: all('SELECT * FROM features ORDER BY id'),
        feature_categories: all('SELECT * FROM feature_categories ORDER BY feature_id, position'),
        images: all('SELECT * FROM images ORDER BY id'),
        documents: all('SELECT * FROM documents ORDER BY id'),
        media: all('SELECT * FROM media ORDER BY id'),
      };
      return fromTables(tables);
    })();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

function insertRows(db: Database.Database, table: string, rows: readonly object[]): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')})`);
  for (const row of rows) insert.run(sqliteValues(row));
}

/** better-sqlite3 binds numbers, strings and null; booleans become 0/1. */
function sqliteValues(row: object): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) values[key] = typeof value === 'boolean' ? Number(value) : value;
  return values;
}
