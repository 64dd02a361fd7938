// Writes a whole catalogue's tables into PostgreSQL inside the caller's transaction:
// DELETE (not TRUNCATE, whose lock would stall every reader) and batched INSERT ... SELECT
// FROM unnest(arrays), a few statements per table instead of one per row.
import type pg from 'pg';
import { CATALOGUE_TABLES_IN_DELETE_ORDER, collectionCounts, type CatalogueTables } from './tables.js';

const BATCH_ROWS = 5000;

const INTEGER_COLUMNS = new Set(['id', 'position', 'feature_id', 'author_id', 'category_id', 'site_id', 'current', 'item_count']);
const BOOLEAN_COLUMNS = new Set(['copyright', 'published']);

function columnType(column: string): string {
  if (INTEGER_COLUMNS.has(column)) return 'integer';
  if (BOOLEAN_COLUMNS.has(column)) return 'boolean';
  return 'text';
}

/**
 * Columns computed in the database from a loaded one: the footprint as PostGIS geometry
 * (from the exact JSON kept beside it), and the search document (from text not kept).
 */
const DERIVED: Record<string, { column: string; expression: string; dropped?: string }> = {
  features: { column: 'geom', expression: 'ST_SetSRID(ST_GeomFromGeoJSON(u.geometry), 4326)' },
  features_search: { column: 'document', expression: "to_tsvector('simple', unaccent(u.text))", dropped: 'text' },
  images_search: { column: 'document', expression: "to_tsvector('simple', unaccent(u.text))", dropped: 'text' },
  documents_search: { column: 'document', expression: "to_tsvector('simple', unaccent(u.text))", dropped: 'text' },
  media_search: { column: 'document', expression: "to_tsvector('simple', unaccent(u.text))", dropped: 'text' },
};

function insertSql(table: string, columns: string[]): string {
  const derived = DERIVED[table];
  const kept = columns.filter((c) => c !== derived?.dropped);
  const targets = derived ? [...kept, derived.column] : kept;
  const values = [...kept.map((c) => `u.${c}`), ...(derived ? [derived.expression] : [])].join(', ');
  const arrays = columns.map((c, i) => `$${i + 1}::${columnType(c)}[]`).join(', ');
  return `INSERT INTO ${table} (${targets.join(', ')}) SELECT ${values} FROM unnest(${arrays}) AS u(${columns.join(', ')})`;
}

async function insertRows(client: pg.ClientBase, table: string, rows: readonly object[]): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const sql = insertSql(table, columns);
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS) as Record<string, unknown>[];
    await client.query(sql, columns.map((c) => batch.map((row) => row[c] ?? null)));
  }
}

/** Replaces every table's rows and moves the catalogue version on by one. */
export async function loadTables(client: pg.ClientBase, tables: CatalogueTables): Promise<void> {
  for (const table of CATALOGUE_TABLES_IN_DELETE_ORDER) await client.query(`DELETE FROM ${table}`);
  for (const [table, rows] of Object.entries(tables)) await insertRows(client, table, rows);
  const meta = Object.entries(collectionCounts(tables)).map(([name, count]) => [`count.${name}`, String(count)]);
  await client.query(
    `INSERT INTO meta (key, value) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [meta.map(([k]) => k), meta.map(([, v]) => v)],
  );
  await client.query("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'catalogue_version'");
}
