// A streamed load into SQLite, inside the caller's transaction: every table emptied, rows
// inserted as records arrive (prepared statements), then finished in SQL (catalogue-finish.ts).
import type Database from 'better-sqlite3';
import type { CatalogueSink } from '../../catalogue/lists.js';
import { CatalogueRowBuilder } from '../apply/catalogue-rows.js';
import { STAGING_TABLE_NAMES, finishSteps, metaCounts, type StepTeller, stagingStatements } from '../apply/catalogue-finish.js';
import { SQLITE_DIALECT } from '../dialect.js';
import { EXTENT_META_KEY, extentPlan, runSync } from '../read-plans.js';
import { toSqlite } from '../sql.js';
import type { MultiPolygon } from '../../catalogue/format.js';
import { encodeOutline } from '../../search/box.js';
import { ITEM_TEXTS_STEP, writeItemTextsPlan } from '../apply/item-texts.js';
import { precomputeSqliteTiles } from '../apply/tile-precompute.js';
import { CATALOGUE_TABLES_IN_DELETE_ORDER } from '../tables.js';
import { STREET_LABELS_STEP, keepAllStreetLabelsPlan } from '../apply/street-label-upkeep.js';

const IMPORT_CACHE_KB = 65536;

/** Tables the rows name that SQLite keeps under another name. */
const TABLE_NAMES: Record<string, string> = { feature_boxes: 'features_rtree' };

/** Rows into their tables through prepared statements, one per table and column list (a load, an apply). */
export class SqliteRowWriter {
  private readonly inserts = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  insert(table: string, given: Record<string, unknown>): void {
    // SQLite's own column: the footprint read back by the exact box test without parsing it (sqlite.ts).
    const row = table === 'features' ? { ...given, outline: encodeOutline(JSON.parse(String(given['geometry'])) as MultiPolygon) } : given;
    const columns = Object.keys(row);
    const key = `${table}(${columns.join(',')})`;
    let statement = this.inserts.get(key);
    if (!statement) {
      statement = this.db.prepare(`INSERT INTO ${TABLE_NAMES[table] ?? table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      this.inserts.set(key, statement);
    }
    statement.run(columns.map((c) => sqliteValue(row[c])));
  }
}

export class SqliteCatalogueLoad {
  private readonly rows: CatalogueRowBuilder;
  private readonly writer: SqliteRowWriter;

  /** Empties the catalogue's tables; the caller has begun the transaction. */
  constructor(private readonly db: Database.Database) {
    // A larger page cache while every index of every table is being filled.
    db.pragma(`cache_size = -${IMPORT_CACHE_KB}`);
    this.dropStaging();
    for (const sql of stagingStatements(SQLITE_DIALECT)) db.exec(sql);
    for (const table of [...CATALOGUE_TABLES_IN_DELETE_ORDER, 'features_rtree']) db.prepare(`DELETE FROM ${table}`).run();
    this.writer = new SqliteRowWriter(db);
    this.rows = new CatalogueRowBuilder((table, row) => this.writer.insert(table, row));
  }

  get sink(): CatalogueSink {
    return this.rows;
  }

  /** How many steps finish() tells of. */
  get finishStepCount(): number {
    return finishSteps(SQLITE_DIALECT, this.rows.summary).length + 3;
  }

  /** Derived data, counts and the version row; the caller then commits. */
  finish(tell: StepTeller): void {
    for (const step of finishSteps(SQLITE_DIALECT, this.rows.summary)) {
      tell(step.label);
      for (const sql of step.sql) this.db.exec(sql);
    }
    const meta = this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    for (const [key, value] of metaCounts(this.rows.summary)) meta.run(key, value);
    const extent = runSync(extentPlan(SQLITE_DIALECT), (q) => this.db.prepare(toSqlite(q.sql)).all(...q.params));
    meta.run(EXTENT_META_KEY, JSON.stringify(extent));
    tell(ITEM_TEXTS_STEP);
    runSync(writeItemTextsPlan(SQLITE_DIALECT, null), (q) => runStatement(this.db, q.sql, q.params));
    tell('crowded map tiles');
    precomputeSqliteTiles(this.db);
    tell(STREET_LABELS_STEP);
    keepSqliteStreetLabels(this.db);
    this.db.prepare("INSERT INTO meta (key, value) VALUES ('catalogue_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1").run();
    this.dropStaging();
  }

  private dropStaging(): void {
    for (const table of STAGING_TABLE_NAMES) this.db.exec(`DROP TABLE IF EXISTS temp.${table}`);
  }
}

/** One statement, prepared as it comes: its rows, or none for a statement that writes (better-sqlite3 refuses `all` there). */
export function runStatement(db: Database.Database, sql: string, params: readonly unknown[]): Record<string, unknown>[] {
  const statement = db.prepare<unknown[], Record<string, unknown>>(toSqlite(sql));
  if (statement.reader) return statement.all(...params);
  statement.run(...params);
  return [];
}

/** Every street's labels placed (store/map/street-label-plans.ts), the buildings read one at a time. */
export function keepSqliteStreetLabels(db: Database.Database): void {
  runSync(keepAllStreetLabelsPlan(), (q) => {
    if (!q.each) return runStatement(db, q.sql, q.params);
    for (const row of db.prepare(toSqlite(q.sql)).iterate(...q.params)) q.each(row);
    return [];
  });
}

/** better-sqlite3 binds numbers, strings and null; booleans become 0/1. */
function sqliteValue(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value;
}
