// The embedded store: one SQLite file through better-sqlite3. Reads run inside a
// transaction so that a page's count and rows come from one catalogue version even while
// another process imports into the same file (WAL mode).
import { errorMessage } from '../../caught.js';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Catalogue } from '../../catalogue/format.js';
import { SQLITE_DIALECT } from '../dialect.js';
import { runSync, versionPlan, type Plan, type Query } from '../read-plans.js';
import { toSqlite } from '../sql.js';
import { ACCOUNT_TABLES, CONTRIBUTOR_STEPS, SQLITE_ACCOUNT_SCHEMA, type ContributorStep } from '../accounts/account-schema.js';
import { SEARCH_TOKENIZER, SQLITE_SCHEMA, SQLITE_SCHEMA_VERSION } from './schema.js';
import { boundingBox, decodeOutline, multiPolygonIntersects, multiPolygonIntersectsBox } from '../../search/box.js';
import { beginsWordsOf } from '../../search/text.js';
import { feedCatalogue } from '../../catalogue/lists.js';
import { keepSqliteStreetLabels, runStatement, SqliteCatalogueLoad, SqliteRowWriter } from './load.js';
import { stepTeller } from '../apply/catalogue-finish.js';
import { commits, type PlannedChange, applyChangeSet, type ApplyDriver, type ApplyOptions, type ApplyOutcome } from '../apply/apply-changes.js';
import { refreshSqliteTiles } from '../apply/tile-precompute.js';
import type { ChangeSet } from '../../changes/format.js';
import { exportBatches, readCatalogue, type RecordBatch } from '../apply/export-rows.js';
import { StoreError, type CatalogueLoad, type CatalogueStore, type ReadPlan, type Snapshot } from '../store.js';

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
    throw new StoreError(`The database ${file} cannot be read: ${errorMessage(error)}.`);
  }
}

function prepareSchema(db: Database.Database): void {
  // The contributors' tables first, whatever the catalogue's schema: never rebuilt, only made.
  db.exec(SQLITE_ACCOUNT_SCHEMA);
  for (const step of CONTRIBUTOR_STEPS) applyContributorStep(db, step);
  const version = schemaVersion(db);
  if (version !== null && ACCOUNTS_ADDED_AFTER.includes(version)) return addStreetLabels(db);
  if (version === STREET_LABELS_ADDED_AFTER) return addStreetLabels(db);
  if (version !== null && version !== SQLITE_SCHEMA_VERSION) return upgradeSchema(db);
  db.exec(SQLITE_SCHEMA);
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema_version', SQLITE_SCHEMA_VERSION);
}

/** The versions that lack only contributors' tables or their later steps (9: all of them; 10: contributions and history; 11: CONTRIBUTOR_STEPS), and the kept street labels. */
const ACCOUNTS_ADDED_AFTER = ['9', '10', '11'];
/** The version that lacks only the kept street labels (13), placed from the stored buildings rather than the whole catalogue loaded again. */
const STREET_LABELS_ADDED_AFTER = '12';

function addStreetLabels(db: Database.Database): void {
  db.transaction(() => {
    db.exec(SQLITE_SCHEMA);
    keepSqliteStreetLabels(db);
    setSchemaVersion(db);
  }).immediate();
}

/** A step's columns added where missing (a new file has none of them either), then its tables and indexes. */
function applyContributorStep(db: Database.Database, step: ContributorStep): void {
  for (const { table, column, type } of step.columns) {
    const has = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM pragma_table_info(?) WHERE name = ?').get(table, column);
    if (has?.n === 0) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type('INTEGER')}`);
  }
  db.exec(step.sql('INTEGER'));
}

function setSchemaVersion(db: Database.Database): void {
  db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(SQLITE_SCHEMA_VERSION);
}

function schemaVersion(db: Database.Database): string | null {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return null;
  const row = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").get();
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
 * Every table but the contributors' is derived from the catalogue, so an older file is upgraded
 * by reading its catalogue, rebuilding those tables and writing it back, in one transaction.
 */
function upgradeSchema(db: Database.Database): void {
  db.transaction(() => {
    const catalogue = readStoredCatalogue(db);
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'").all().map((t) => t.name);
    const virtual = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'").all().map((t) => t.name);
    const kept = new Set<string>(ACCOUNT_TABLES);
    for (const name of [...virtual, ...tables].filter((n) => !kept.has(n))) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    db.exec(SQLITE_SCHEMA);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('schema_version', SQLITE_SCHEMA_VERSION);
    writeCatalogue(db, catalogue);
  }).immediate();
}

/** Through export's query and mapping: an older file's tables hold the same columns. */
function readStoredCatalogue(db: Database.Database): Catalogue {
  return readCatalogue((sql, params) => db.prepare<unknown[], Record<string, unknown>>(toSqlite(sql)).all(...params), SQLITE_DIALECT);
}

/** Replaces every row; the caller holds the transaction. */
function writeCatalogue(db: Database.Database, catalogue: Catalogue): void {
  const load = new SqliteCatalogueLoad(db);
  feedCatalogue(catalogue, load.sink);
  load.finish(() => undefined);
}

/**
 * SQL functions the shared queries use (dialect.ts): the exact footprint tests after the
 * R*Tree, against a box or a filter's geometry; CASEI's fold, lower case beyond ASCII; a
 * text query checked on one record's text.
 */
export function registerFunctions(db: Database.Database): void {
  db.function('intersects_box', { deterministic: true }, (outline, minX, minY, maxX, maxY) =>
    multiPolygonIntersectsBox(decodeOutline(storedOutline(outline)), [Number(minX), Number(minY), Number(maxX), Number(maxY)]) ? 1 : 0,
  );
  // A filter's literal is the same text for every row of its statement: parsed once, not per row.
  let literalText: unknown = null;
  let literalValue: Parameters<typeof multiPolygonIntersects>[1] | null = null;
  db.function('intersects_geometry', { deterministic: true }, (geometry, literal) => {
    if (literal !== literalText || literalValue === null) {
      literalValue = JSON.parse(String(literal));
      literalText = literal;
    }
    return literalValue !== null && multiPolygonIntersects(JSON.parse(String(geometry)), literalValue) ? 1 : 0;
  });
  db.function('geometry_bound', { deterministic: true }, (geometry, side) => boundingBox(JSON.parse(String(geometry)))[Number(side)] ?? null);
  db.function('casefold', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
  // One record's search text against a text query of plain words (dialect.ts textCheck):
  // the words (one space apart) where they tell, else FTS5 itself on that text alone.
  db.function('matches_words', { deterministic: true }, (text, words, query) => {
    const plain = String(text ?? '');
    return (beginsWordsOf(plain, String(words).split(' ')) ?? oneTextMatches(plain, String(query))) ? 1 : 0;
  });
}

/** A footprint's outline as the R*Tree's table keeps it (a BLOB). */
function storedOutline(value: unknown): Buffer {
  if (!Buffer.isBuffer(value)) throw new TypeError('a footprint outline is not a BLOB');
  return value;
}

let oneText: { insert: Database.Statement; match: Database.Statement; clear: Database.Statement } | undefined;

/**
 * Whether an FTS5 query matches one text, tokenised as the search tables do: the text put
 * alone into a table of an in-memory database (the store's own connection is busy running
 * the statement that asks).
 */
function oneTextMatches(text: string, query: string): boolean {
  if (!oneText) {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE one USING fts5(text, ${SEARCH_TOKENIZER})`);
    oneText = { insert: db.prepare('INSERT INTO one (rowid, text) VALUES (1, ?)'), match: db.prepare('SELECT 1 FROM one WHERE one MATCH ?').pluck(), clear: db.prepare('DELETE FROM one') };
  }
  oneText.insert.run(text);
  try {
    return oneText.match.get(query) !== undefined;
  } finally {
    oneText.clear.run();
  }
}

/** Runs a query on a connection, each distinct SQL text prepared once (in `statements`). */
function queryOn(db: Database.Database, statements: Map<string, Database.Statement>, { sql, params, each }: Query): unknown[] {
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(toSqlite(sql));
    statements.set(sql, statement);
  }
  // A write without RETURNING (the contributors' tables: account-plans.ts) returns no rows.
  if (!statement.reader) {
    statement.run(...params);
    return [];
  }
  if (!each) return statement.all(...params);
  for (const row of statement.iterate(...params)) each(row);
  return [];
}

export class SqliteStore implements CatalogueStore {
  /** Each distinct SQL text is prepared once. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** One transaction per read: its queries see one catalogue, even during an import. */
  async read<R>(plan: ReadPlan<R>): Promise<R> {
    return this.db.transaction(() => runSync(plan(SQLITE_DIALECT), (q) => this.query(q)))();
  }

  /**
   * On a read-only connection of its own, in a transaction held until it closes (WAL: an
   * import committing meanwhile is not seen); the shared connection goes on serving other
   * requests, and never holds a transaction across an await.
   */
  async snapshot(): Promise<Snapshot> {
    const db = new Database(this.db.name, { readonly: true, fileMustExist: true });
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      if (db.inTransaction) db.exec('COMMIT');
      db.close();
    };
    try {
      db.pragma('busy_timeout = 5000');
      // Read once, in key order (a download's batches): better-sqlite3's 16 MB page cache per snapshot would only hold memory.
      db.pragma('cache_size = -2000');
      registerFunctions(db);
      const statements = new Map<string, Database.Statement>();
      db.exec('BEGIN');
      return { run: async (plan) => runSync(plan(SQLITE_DIALECT), (q) => queryOn(db, statements, q)), close };
    } catch (error) {
      await close();
      throw error;
    }
  }

  async catalogueVersion(): Promise<number> {
    return this.read(versionPlan);
  }

  /** The file's path and its inode and birth time: a file deleted and imported again is another. */
  async databaseIdentity(): Promise<string> {
    const file = fs.realpathSync(this.db.name);
    const stat = fs.statSync(file, { bigint: true });
    return `sqlite ${file} ${stat.dev}:${stat.ino}:${stat.birthtimeNs}`;
  }

  /** A plan of the contributors' tables: a write in one IMMEDIATE transaction (one writer at a time), a read in a deferred one. */
  async transact<R>(plan: Plan<R>, mode: 'read' | 'write' = 'write'): Promise<R> {
    const run = this.db.transaction(() => runSync(plan, (q) => this.query(q)));
    return mode === 'write' ? run.immediate() : run.deferred();
  }

  private query(query: Query): unknown[] {
    return queryOn(this.db, this.statements, query);
  }

  /**
   * A streamed import: one IMMEDIATE transaction (one writer at a time; readers in other
   * processes keep their snapshot) held open while records arrive.
   */
  async beginLoad(): Promise<CatalogueLoad> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const load = new SqliteCatalogueLoad(this.db);
      return {
        sink: load.sink,
        flush: async () => undefined,
        commit: async (onStep) => {
          const tell = stepTeller(onStep, load.finishStepCount + 2);
          load.finish(tell);
          // Statistics, as PostgreSQL's import gathers: the planner weighs a filter's indexes by them.
          tell('statistics for the planner');
          this.db.exec('ANALYZE');
          tell('commit');
          this.db.exec('COMMIT');
        },
        rollback: async () => {
          if (this.db.inTransaction) this.db.exec('ROLLBACK');
        },
      };
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * One IMMEDIATE transaction, as an import's; committed only when something changed. Applies
   * called at once on this connection take turns: each holds its transaction across awaits, and
   * a second BEGIN on the same connection would fail ("cannot start a transaction within a transaction").
   */
  applyChanges(changes: ChangeSet | PlannedChange, options: ApplyOptions = {}): Promise<ApplyOutcome> {
    const turn = this.applying.then(() => this.applyNow(changes, options));
    this.applying = turn.catch(() => undefined);
    return turn;
  }

  private applying: Promise<unknown> = Promise.resolve();

  private async applyNow(changes: ChangeSet | PlannedChange, options: ApplyOptions): Promise<ApplyOutcome> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const outcome = await applyChangeSet(this.applyDriver(), changes, options);
      this.db.exec(commits(outcome, changes, options) ? 'COMMIT' : 'ROLLBACK');
      return outcome;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private applyDriver(): ApplyDriver {
    const db = this.db;
    const writer = new SqliteRowWriter(db);
    return {
      dialect: SQLITE_DIALECT,
      query: async (sql, params = []) => runStatement(db, sql, params),
      write: (table, row) => writer.insert(table, row),
      flush: async () => undefined,
      deleteBoxes: async (ids) => {
        db.prepare('DELETE FROM features_rtree WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids));
      },
      refreshTiles: async (boxes) => refreshSqliteTiles(db, boxes),
      nextVersion: async () => {
        db.prepare("INSERT INTO meta (key, value) VALUES ('catalogue_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1").run();
        return Number(db.prepare("SELECT value FROM meta WHERE key = 'catalogue_version'").pluck().get());
      },
    };
  }

  /** A read transaction held while batches go out: the export is one snapshot. */
  async *exportCatalogue(): AsyncGenerator<RecordBatch> {
    this.db.exec('BEGIN');
    try {
      yield* exportBatches((sql, params) => this.query({ sql, params }) as Record<string, unknown>[], SQLITE_DIALECT);
    } finally {
      this.db.exec('COMMIT');
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
