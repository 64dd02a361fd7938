// A streamed load into PostgreSQL inside the caller's transaction: DELETE (not TRUNCATE,
// whose lock would stall every reader), rows buffered per table and written in batches of
// `INSERT ... SELECT FROM unnest(arrays)`, then finished in SQL (catalogue-finish.ts).
import type pg from 'pg';
import type { CatalogueSink } from '../../catalogue/lists.js';
import { CatalogueRowBuilder } from '../apply/catalogue-rows.js';
import { ITEM_TEXTS_STEP, writeItemTextsPlan } from '../apply/item-texts.js';
import { STAGING_TABLE_NAMES, finishSteps, metaCounts, type StepTeller, stagingStatements } from '../apply/catalogue-finish.js';
import { POSTGRES_DIALECT } from '../dialect.js';
import { EXTENT_META_KEY, extentPlan, handOver, runAsync, type Query } from '../read-plans.js';
import { STREET_LABELS_STEP, keepAllStreetLabelsPlan } from '../apply/street-label-upkeep.js';
import { precomputePostgresTiles } from '../apply/tile-precompute.js';
import { CATALOGUE_TABLES_IN_DELETE_ORDER } from '../tables.js';

const BATCH_ROWS = 5000;

const INTEGER_COLUMNS = new Set(['id', 'position', 'feature_id', 'author_id', 'category_id', 'site_id', 'current', 'item_count', 'kind', 'seq']);
const BOOLEAN_COLUMNS = new Set(['copyright', 'published']);

/** Rows PostgreSQL has no table for: its GiST index on `geom` does the R*Tree's work. */
const SKIPPED_TABLES = new Set(['feature_boxes']);

function columnType(column: string): string {
  if (INTEGER_COLUMNS.has(column)) return 'integer';
  if (BOOLEAN_COLUMNS.has(column)) return 'boolean';
  return 'text';
}

/** The footprint as PostGIS geometry, computed in the database from the exact JSON kept beside it. */
const DERIVED: Record<string, { column: string; expression: string }> = {
  features: { column: 'geom', expression: 'ST_SetSRID(ST_GeomFromGeoJSON(u.geometry), 4326)' },
};

function insertSql(table: string, columns: string[]): string {
  const derived = DERIVED[table];
  const targets = derived ? [...columns, derived.column] : columns;
  const values = [...columns.map((c) => `u.${c}`), ...(derived ? [derived.expression] : [])].join(', ');
  const arrays = columns.map((c, i) => `$${i + 1}::${columnType(c)}[]`).join(', ');
  return `INSERT INTO ${table} (${targets.join(', ')}) SELECT ${values} FROM unnest(${arrays}) AS u(${columns.join(', ')})`;
}

/** Rows held per table and written in batches (a load, an apply). */
export class PostgresRowWriter {
  private readonly pending = new Map<string, Record<string, unknown>[]>();

  constructor(private readonly client: pg.ClientBase) {}

  buffer(table: string, row: Record<string, unknown>): void {
    if (SKIPPED_TABLES.has(table)) return;
    let rows = this.pending.get(table);
    if (!rows) this.pending.set(table, (rows = []));
    rows.push(row);
  }

  /** Writes every row held. */
  async flush(): Promise<void> {
    for (const [table, rows] of this.pending) {
      if (rows.length === 0) continue;
      this.pending.set(table, []);
      await this.insert(table, rows);
    }
  }

  private async insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    const [first] = rows;
    if (!first) return;
    const columns = Object.keys(first);
    const sql = insertSql(table, columns);
    for (let start = 0; start < rows.length; start += BATCH_ROWS) {
      const batch = rows.slice(start, start + BATCH_ROWS);
      await this.client.query(sql, columns.map((c) => batch.map((row) => row[c] ?? null)));
    }
  }
}

/** A plan's statements run on one client (its transaction), as `runAsync` takes them. */
export const onClient = (client: pg.ClientBase) => async (q: Query): Promise<unknown[]> => handOver(q, (await client.query(q.sql, q.params)).rows);

export class PostgresCatalogueLoad {
  private readonly rows: CatalogueRowBuilder;
  private readonly writer: PostgresRowWriter;

  private constructor(private readonly client: pg.ClientBase) {
    this.writer = new PostgresRowWriter(client);
    this.rows = new CatalogueRowBuilder((table, row) => this.writer.buffer(table, row));
  }

  /** Empties the catalogue's tables; the caller has begun the transaction. */
  static async start(client: pg.ClientBase): Promise<PostgresCatalogueLoad> {
    for (const table of CATALOGUE_TABLES_IN_DELETE_ORDER) await client.query(`DELETE FROM ${table}`);
    await client.query(stagingStatements(POSTGRES_DIALECT).join(';\n'));
    return new PostgresCatalogueLoad(client);
  }

  get sink(): CatalogueSink {
    return this.rows;
  }

  /** Writes every row held, so memory holds at most what one chunk of the file made. */
  async flush(): Promise<void> {
    await this.writer.flush();
  }

  /** How many steps finish() tells of. */
  get finishStepCount(): number {
    return finishSteps(POSTGRES_DIALECT, this.rows.summary).length + 3;
  }

  /** Derived data, counts and the version row; the caller then commits. */
  async finish(tell: StepTeller): Promise<void> {
    await this.flush();
    await this.client.query(`ANALYZE ${STAGING_TABLE_NAMES.join(', ')}`);
    for (const step of finishSteps(POSTGRES_DIALECT, this.rows.summary)) {
      tell(step.label);
      for (const sql of step.sql) await this.client.query(sql);
    }
    const extent = await runAsync(extentPlan(POSTGRES_DIALECT), onClient(this.client));
    const meta = [...metaCounts(this.rows.summary), [EXTENT_META_KEY, JSON.stringify(extent)]];
    await this.client.query(
      `INSERT INTO meta (key, value) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [meta.map(([k]) => k), meta.map(([, v]) => v)],
    );
    tell(ITEM_TEXTS_STEP);
    await runAsync(writeItemTextsPlan(POSTGRES_DIALECT, null), onClient(this.client));
    tell('crowded map tiles');
    await precomputePostgresTiles(this.client);
    tell(STREET_LABELS_STEP);
    await runAsync(keepAllStreetLabelsPlan(), onClient(this.client));
    await this.client.query("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'catalogue_version'");
  }
}
