// The embedded store: one SQLite file through better-sqlite3. Reads run inside a
// transaction so that a page's count and rows come from one catalogue version even while
// another process imports into the same file (WAL mode).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Catalogue } from '../catalogue/format.js';
import { SQLITE_DIALECT } from './dialect.js';
import type { Filters } from './filters.js';
import { getPlan, listPlan, runSync, versionPlan, type Plan, type Query } from './read-plans.js';
import { toSqlite } from './sql.js';
import { SQLITE_SCHEMA, SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';
import { boundingBox, multiPolygonIntersectsBox } from '../search/box.js';
import {
  CATALOGUE_TABLES_IN_DELETE_ORDER,
  STORED_TABLE_QUERIES,
  collectionCounts,
  fromTables,
  toTables,
  type StoredTables,
} from './tables.js';
import {
  StoreError,
  type CatalogueStore,
  type ChooseSlice,
  type Detail,
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
    db.pragma('journal_mode = WAL');
    registerFunctions(db);
    if (create) prepareSchema(db);
    checkSchema(db, file);
    return new SqliteStore(db);
  } catch (error) {
    db?.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(`The database ${file} cannot be read: ${(error as Error).message}.`);
  }
}

function prepareSchema(db: Database.Database): void {
  const version = schemaVersion(db);
  if (version !== null && version !== SQLITE_SCHEMA_VERSION) return upgradeSchema(db);
  db.exec(SQLITE_SCHEMA);
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema_version', SQLITE_SCHEMA_VERSION);
}

function schemaVersion(db: Database.Database): string | null {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return null;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row?.value ?? null;
}

function checkSchema(db: Database.Database, file: string): void {
  const version = schemaVersion(db);
  if (version === null) throw new StoreError(`The database ${file} is not a heritage-api catalogue.`);
  if (version !== SQLITE_SCHEMA_VERSION) {
    throw new StoreError(`The database ${file} has schema version ${version}; this heritage-api reads version ${SQLITE_SCHEMA_VERSION}: run heritage-api migrate --db ${file}.`);
  }
}

/**
 * Every table is derived from the catalogue, so an older file is upgraded by reading its
 * catalogue, rebuilding the tables and writing it back, in one transaction.
 */
function upgradeSchema(db: Database.Database): void {
  db.transaction(() => {
    const catalogue = readStoredCatalogue(db);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'").pluck().all() as string[];
    const virtual = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'").pluck().all() as string[];
    for (const name of [...virtual, ...tables]) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    db.exec(SQLITE_SCHEMA);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('schema_version', SQLITE_SCHEMA_VERSION);
    writeCatalogue(db, catalogue);
  }).immediate();
}

function readStoredCatalogue(db: Database.Database): Catalogue {
  const entries = Object.entries(STORED_TABLE_QUERIES).map(([table, sql]) => [table, db.prepare(sql).all()]);
  return fromTables(Object.fromEntries(entries) as StoredTables);
}

/** Replaces every row; the caller holds the transaction. */
function writeCatalogue(db: Database.Database, catalogue: Catalogue): void {
  const tables = toTables(catalogue);
  for (const table of [...CATALOGUE_TABLES_IN_DELETE_ORDER, 'features_rtree']) db.prepare(`DELETE FROM ${table}`).run();
  for (const [table, rows] of Object.entries(tables)) insertRows(db, table, rows);
  const box = db.prepare('INSERT INTO features_rtree (id, min_x, max_x, min_y, max_y) VALUES (?, ?, ?, ?, ?)');
  for (const f of catalogue.features) {
    const [minX, minY, maxX, maxY] = boundingBox(f.geometry);
    box.run(f.id, minX, maxX, minY, maxY);
  }
  db.prepare("INSERT INTO meta (key, value) VALUES ('catalogue_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1").run();
  for (const [name, count] of Object.entries(collectionCounts(tables))) {
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(`count.${name}`, String(count));
  }
}

/** SQL functions the shared queries use: the exact footprint-box test of the bbox filter. */
function registerFunctions(db: Database.Database): void {
  db.function('intersects_box', { deterministic: true }, (geometry, minX, minY, maxX, maxY) =>
    multiPolygonIntersectsBox(JSON.parse(geometry as string), [Number(minX), Number(minY), Number(maxX), Number(maxY)]) ? 1 : 0,
  );
}

export class SqliteStore implements CatalogueStore {
  /** Each distinct SQL text is prepared once. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  async list<C extends CollectionName, T>(collection: C, choose: ChooseSlice<T>, filters: Filters = {}): Promise<Listing<RowsByCollection[C], T>> {
    return this.read(listPlan(collection, choose, filters, SQLITE_DIALECT));
  }

  async get<C extends CollectionName>(collection: C, id: number): Promise<Detail<RowsByCollection[C]>> {
    return this.read(getPlan(collection, id));
  }

  async catalogueVersion(): Promise<number> {
    return this.read(versionPlan());
  }

  /** One transaction per read: its queries see one catalogue, even during an import. */
  private read<R>(plan: Plan<R>): R {
    return this.db.transaction(() => runSync(plan, (q) => this.query(q)))();
  }

  private query({ sql, params }: Query): unknown[] {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(toSqlite(sql));
      this.statements.set(sql, statement);
    }
    return statement.all(...params);
  }

  async replaceCatalogue(catalogue: Catalogue): Promise<void> {
    this.db.transaction(() => writeCatalogue(this.db, catalogue)).immediate();
  }

  async readCatalogue(): Promise<Catalogue> {
    return this.db.transaction(() => readStoredCatalogue(this.db))();
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
