// Which store the tests run on. The HTTP suites run once on SQLite (test/http) and once on
// PostgreSQL (test/postgres imports the same files with HERITAGE_TEST_STORE=postgres).
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { RawSettings } from '../../src/config.js';
import { temporaryDir } from './temporary.js';

export type StoreKind = 'sqlite' | 'postgres';

export const TEST_PG_URL = process.env.HERITAGE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function testStoreKind(): StoreKind {
  return process.env.HERITAGE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  /** The settings that select it (database, and schema on PostgreSQL). */
  settings: RawSettings;
  /** The same as command-line flags. */
  args: string[];
  drop(): Promise<void>;
}

let schemaCounter = 0;

/** A fresh, empty database of the tests' store: a temporary file, or a new schema. */
export function createTestDatabase(kind: StoreKind = testStoreKind()): TestDatabase {
  if (kind === 'postgres') {
    const schema = `heritage_test_${process.pid}_${++schemaCounter}`;
    return {
      settings: { database: TEST_PG_URL, databaseSchema: schema },
      args: ['--db', TEST_PG_URL, '--schema', schema],
      drop: () => dropSchema(schema),
    };
  }
  const dir = temporaryDir();
  const database = path.join(dir, 'catalogue.db');
  return {
    settings: { database },
    args: ['--db', database],
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** One connection to `url` (the tests' database unless said), for `work`, then closed. */
export async function withPgClient<T>(work: (client: pg.Client) => Promise<T>, url = TEST_PG_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function dropSchema(schema: string): Promise<void> {
  await withPgClient((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export async function postgresUnavailableReason(): Promise<string | null> {
  try {
    await withPgClient(async (client) => {
      const postgis = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'");
      if (postgis.rowCount === 0) throw new Error('PostGIS is not installed (Debian: postgresql-15-postgis-3)');
    });
    return null;
  } catch (error) {
    return `PostgreSQL at ${TEST_PG_URL} is not usable: ${(error as Error).message}`;
  }
}

/**
 * Clears the dead rows that the tests' thousands of schemas, made and dropped, leave in the
 * test database's system catalogues. Where autovacuum is off (this project's CI machine) they
 * piled up from run to run (pg_attribute: 544,000 dead rows after eight runs) and every
 * schema made or dropped, every planned query, grew slower: npm test took 274 s, then 300 s,
 * then 319 s. Run before each npm test; nothing when PostgreSQL is not there.
 */
export async function vacuumTestDatabase(): Promise<void> {
  if ((await postgresUnavailableReason()) !== null) return;
  await withPgClient((client) => client.query('VACUUM'));
}
