// Connections to PostgreSQL: one pool per process, every connection pointed at the
// catalogue's schema, with timeouts so that a slow or missing database costs a request
// at most `dbTimeoutMs`, never a hang.
import { errorMessage } from '../../caught.js';
import pg from 'pg';
import { StoreError, StoreUnavailableError } from '../store.js';

export interface PostgresSettings {
  url: string;
  schema: string;
  poolSize: number;
  /** Connect, wait for a pooled connection, or run one statement: each at most this long. */
  timeoutMs: number;
}

/**
 * bigint counts and ids as numbers (ours fit in 2^53), on this pool's connections only:
 * pg's global parsers, shared by every client in the process, are left as they are.
 */
const INT8_AS_NUMBER: pg.CustomTypesConfig = {
  getTypeParser: (id, format) => (id === pg.types.builtins.INT8 && format !== 'binary' ? Number : pg.types.getTypeParser(id, format)),
};

export function createPool(settings: PostgresSettings, options: { statementTimeout?: boolean } = {}): pg.Pool {
  const timeouts = options.statementTimeout === false
    ? {}
    : { statement_timeout: settings.timeoutMs, query_timeout: settings.timeoutMs + 100 };
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize,
    connectionTimeoutMillis: settings.timeoutMs,
    idleTimeoutMillis: 30_000,
    // A server restart or network cut must not leave dead sockets to fail later requests.
    keepAlive: true,
    // Our tables in the schema, PostGIS and unaccent in public. Parallel plans cost more
    // to start than an API query takes, and many requests run at once anyway.
    options: `-c search_path=${settings.schema},public -c max_parallel_workers_per_gather=0`,
    application_name: 'heritage-api',
    types: INT8_AS_NUMBER,
    ...timeouts,
  });
  // An idle connection that dies (database restart) emits this; without a listener the
  // process would crash. The pool drops it and opens a new one when needed.
  pool.on('error', () => undefined);
  // So does a checked-out connection that dies between two queries of a read (the pool only
  // listens to idle ones): the next query fails instead, and the read answers 503.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** The errors that mean "the database is not answering", as opposed to a bug or bad data. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

export function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  // 08: connection exceptions; 57P0x: shutdown; 57014: statement timeout; 53: resources.
  if (code !== undefined && /^(08|57P0|53)/.test(code)) return true;
  if (code === '57014') return true;
  const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
  return /timeout|terminated|Connection terminated|not queryable|ended/i.test(message);
}

/** A failed read as the store's error: unavailable (503) or a plain failure. */
export function storeFailure(error: unknown): Error {
  if (error instanceof StoreError) return error;
  if (isUnavailable(error)) return new StoreUnavailableError(errorMessage(error));
  return error instanceof Error ? error : new StoreError(String(error));
}

