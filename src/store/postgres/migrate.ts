// Applies the migrations that a schema lacks, under an advisory lock so that two imports
// starting together do not race, and checks a schema's version before serving from it.
import type pg from 'pg';
import { LATEST_MIGRATION, MIGRATIONS } from './migrations.js';
import { StoreError } from '../store.js';
import { POSTGRES_DIALECT } from '../dialect.js';
import { writeItemTextsPlan } from '../apply/item-texts.js';
import { runAsync } from '../read-plans.js';
import { onClient } from './load.js';
import { precomputePostgresTiles } from '../apply/tile-precompute.js';
import { keepAllStreetLabelsPlan } from '../apply/street-label-upkeep.js';

const LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext('heritage-api migrate ' || $1))";

/** Brings the schema up to the latest migration; returns the versions applied. */
export async function migrate(client: pg.PoolClient, schema: string): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query(LOCK_SQL, [schema]);
    await prepareSchema(client, schema);
    const current = await appliedVersion(client, schema);
    const pending = MIGRATIONS.filter((m) => m.version > current);
    for (const migration of pending) {
      await client.query(migration.sql);
      if (migration.itemTexts) await runAsync(writeItemTextsPlan(POSTGRES_DIALECT, null), onClient(client));
      if (migration.tiles) await precomputePostgresTiles(client);
      if (migration.streetLabels) await runAsync(keepAllStreetLabelsPlan(), onClient(client));
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    await client.query('COMMIT');
    return pending.map((m) => m.version);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** PostGIS for footprints, unaccent for search, pg_trgm for LIKE on category names; all in public, which every connection searches. */
const EXTENSIONS = ['postgis', 'unaccent', 'pg_trgm'];

async function prepareSchema(client: pg.PoolClient, schema: string): Promise<void> {
  for (const extension of EXTENSIONS) {
    const installed = await client.query('SELECT 1 FROM pg_extension WHERE extname = $1', [extension]);
    if (installed.rowCount !== 0) continue;
    try {
      await client.query(`CREATE EXTENSION IF NOT EXISTS ${extension} WITH SCHEMA public`);
    } catch (error) {
      throw new StoreError(`The PostgreSQL extension ${extension} is needed and could not be enabled (${(error as Error).message}); install it (Debian: postgresql-15-postgis-3 for postgis; unaccent and pg_trgm come with PostgreSQL) or ask an administrator to run CREATE EXTENSION ${extension} WITH SCHEMA public.`);
    }
  }
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
}

/** The highest migration applied, 0 for none; null when the schema or its table is missing. */
export async function appliedVersion(client: pg.ClientBase, schema: string): Promise<number> {
  const exists = await client.query('SELECT to_regclass($1) AS t', [`${schema}.schema_migrations`]);
  if (exists.rows[0].t === null) return 0;
  const result = await client.query(`SELECT coalesce(max(version), 0) AS v FROM ${schema}.schema_migrations`);
  return Number(result.rows[0].v);
}

/** Serving needs a schema at exactly the latest migration. */
export async function checkSchemaVersion(client: pg.ClientBase, schema: string, where: string): Promise<void> {
  const version = await appliedVersion(client, schema);
  if (version === 0) {
    throw new StoreError(`${where} has no heritage-api catalogue in schema "${schema}": import one first (heritage-api import FILE --db URL).`);
  }
  if (version < LATEST_MIGRATION) {
    throw new StoreError(`${where} schema "${schema}" is at migration ${version}; run heritage-api migrate to bring it to ${LATEST_MIGRATION}.`);
  }
  if (version > LATEST_MIGRATION) {
    throw new StoreError(`${where} schema "${schema}" is at migration ${version}, newer than this heritage-api (${LATEST_MIGRATION}): upgrade heritage-api.`);
  }
}
