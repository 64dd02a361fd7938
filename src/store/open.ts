// Picks the store from the database setting: a postgres:// URL or a SQLite file path.
import { parseDatabase, type Config } from '../config.js';
import { describeUrl } from './database-url.js';
import type { CatalogueStore } from './store.js';

export type StoreConfig = Pick<Config, 'database' | 'databaseSchema' | 'poolSize' | 'dbTimeoutMs'>;

export interface OpenOptions {
  /** Create or migrate the schema (import, migrate); otherwise it must exist and be current. */
  create?: boolean;
  /** A server's store: see PostgresOpenOptions.serving. */
  serving?: boolean;
}

export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

export async function openStore(config: StoreConfig, options: OpenOptions = {}): Promise<CatalogueStore> {
  // Refuses `mysql://…` before SQLite makes a folder `mysql:` of it, whoever built the config.
  parseDatabase(config.database);
  // Each store's module (its driver) is loaded only when it is used: pg alone costs a
  // tenth of a second of start-up to a server that reads SQLite.
  if (!isPostgresUrl(config.database)) return (await import('./sqlite/sqlite.js')).openSqliteStore(config.database, options);
  const { openPostgresStore } = await import('./postgres/postgres.js');
  const settings = { url: config.database, schema: config.databaseSchema, poolSize: config.poolSize, timeoutMs: config.dbTimeoutMs };
  return openPostgresStore(settings, options);
}

/** The database for messages and logs: a file path, or a URL without its password. */
export function describeDatabase(config: Pick<Config, 'database' | 'databaseSchema'>): string {
  if (!isPostgresUrl(config.database)) return config.database;
  return `${describeUrl(config.database)} (schema ${config.databaseSchema})`;
}
