// One typed, frozen Config: defaults, then the environment, then command-line flags.
// process.env is read here and nowhere else.

export interface Config {
  /** A SQLite file path, or a postgres:// URL. */
  readonly database: string;
  /** PostgreSQL only: the schema holding the catalogue's tables. */
  readonly databaseSchema: string;
  /** PostgreSQL only: connections per process. */
  readonly poolSize: number;
  /** PostgreSQL only: the longest a connection or a read may take before the answer is a 503. */
  readonly dbTimeoutMs: number;
  /** How often a server checks whether a new catalogue was imported. */
  readonly versionPollMs: number;
  readonly port: number;
  readonly host: string;
  /** Absolute base for every link, without a trailing slash; null = from the request's Host. */
  readonly baseUrl: string | null;
  /** Host patterns accepted in the Host header: exact names, `.suffix` for subdomains, `*`. */
  readonly allowedHosts: readonly string[];
  readonly mediaRoot: string | null;
  readonly trustProxy: boolean;
  readonly logLevel: string;
  /** Cache-Control of every 200. */
  readonly cacheControl: string;
  /** Rendered answers kept in memory, at most this many bytes (0: no cache). */
  readonly cacheMaxBytes: number;
  /** gzip/brotli by Accept-Encoding (then Vary is `Accept, Accept-Encoding`). */
  readonly compress: boolean;
}

/** Settings as given by flags or environment: all strings, all optional. */
export interface RawSettings {
  database?: string;
  databaseSchema?: string;
  poolSize?: string;
  dbTimeoutMs?: string;
  versionPollMs?: string;
  port?: string;
  host?: string;
  baseUrl?: string;
  allowedHosts?: string;
  mediaRoot?: string;
  trustProxy?: string;
  logLevel?: string;
  cacheControl?: string;
  cacheMaxMb?: string;
  compress?: string;
}

export const DEFAULT_DATABASE = './data/catalogue.db';
export const DEFAULT_SCHEMA = 'heritage';
const DEFAULT_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {}

const ENV_NAMES: Record<keyof RawSettings, string> = {
  database: 'DATABASE_URL',
  databaseSchema: 'DATABASE_SCHEMA',
  poolSize: 'PG_POOL_SIZE',
  dbTimeoutMs: 'DB_TIMEOUT_MS',
  versionPollMs: 'VERSION_POLL_MS',
  port: 'PORT',
  host: 'HOST',
  baseUrl: 'BASE_URL',
  allowedHosts: 'ALLOWED_HOSTS',
  mediaRoot: 'MEDIA_ROOT',
  trustProxy: 'TRUST_PROXY',
  logLevel: 'LOG_LEVEL',
  cacheControl: 'CACHE_CONTROL',
  cacheMaxMb: 'CACHE_MAX_MB',
  compress: 'COMPRESS',
};

/** The settings the environment gives, by their RawSettings names. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): RawSettings {
  const settings: RawSettings = {};
  for (const [key, name] of Object.entries(ENV_NAMES) as [keyof RawSettings, string][]) {
    const value = env[name];
    if (value !== undefined && value !== '') settings[key] = value;
  }
  return settings;
}

/** Flags win over the environment, which wins over the defaults. */
export function loadConfig(flags: RawSettings = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const raw: RawSettings = { ...settingsFromEnv(env), ...definedOnly(flags) };
  const baseUrl = raw.baseUrl === undefined ? null : parseBaseUrl(raw.baseUrl);
  return Object.freeze({
    database: raw.database ?? DEFAULT_DATABASE,
    databaseSchema: parseSchemaName(raw.databaseSchema ?? DEFAULT_SCHEMA),
    poolSize: parseWholeNumber('PG_POOL_SIZE', raw.poolSize ?? '10', 1, 1000),
    dbTimeoutMs: parseWholeNumber('DB_TIMEOUT_MS', raw.dbTimeoutMs ?? '800', 50, 600_000),
    versionPollMs: parseWholeNumber('VERSION_POLL_MS', raw.versionPollMs ?? '1000', 50, 60_000),
    port: parsePort(raw.port ?? '8000'),
    host: raw.host ?? '127.0.0.1',
    baseUrl,
    allowedHosts: Object.freeze(parseAllowedHosts(raw.allowedHosts, baseUrl)),
    mediaRoot: raw.mediaRoot ?? null,
    trustProxy: parseBoolean('TRUST_PROXY', raw.trustProxy ?? '0'),
    logLevel: parseLogLevel(raw.logLevel ?? 'info'),
    cacheControl: raw.cacheControl ?? 'public, max-age=60',
    cacheMaxBytes: parseWholeNumber('CACHE_MAX_MB', raw.cacheMaxMb ?? '64', 0, 100_000) * 1024 * 1024,
    compress: parseBoolean('COMPRESS', raw.compress ?? '0'),
  });
}

function definedOnly(settings: RawSettings): RawSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as RawSettings;
}

export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new ConfigError(`port must be a whole number from 0 to 65535, not "${value}".`);
  return port;
}

export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`base URL must be an absolute http(s) URL such as https://example.org, not "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`base URL must start with http:// or https://, not "${value}".`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`base URL must not carry a query, fragment or credentials: "${value}".`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Comma-separated patterns; by default the loopback names and BASE_URL's host. */
export function parseAllowedHosts(value: string | undefined, baseUrl: string | null): string[] {
  const hosts = value === undefined ? [...DEFAULT_ALLOWED_HOSTS] : value.split(',').map((h) => h.trim().toLowerCase());
  if (baseUrl !== null) hosts.push(new URL(baseUrl).hostname.toLowerCase());
  return [...new Set(hosts.filter((h) => h !== ''))];
}

/** A plain lower-case SQL identifier, so it can be written into SQL unquoted and safely. */
export function parseSchemaName(value: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) {
    throw new ConfigError(`schema name must be lower-case letters, digits and _ (not starting with a digit), not "${value}".`);
  }
  return value;
}

function parseWholeNumber(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${value}".`);
  return n;
}

function parseBoolean(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (true/false), not "${value}".`);
}

function parseLogLevel(value: string): string {
  if (!LOG_LEVELS.includes(value)) throw new ConfigError(`log level must be one of ${LOG_LEVELS.join(', ')}, not "${value}".`);
  return value;
}
