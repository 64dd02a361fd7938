// One typed, frozen Config: defaults, then the environment, then command-line flags.
// process.env is read here and nowhere else.
import { isIP } from 'node:net';
import { CATALOGUE_LIMITS, LIMIT_CEILING, type CatalogueLimits } from './catalogue/limits.js';

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
  /** Origins that browser scripts may read /api/ from: `*` (any), a list, or `off`. */
  readonly corsOrigins: CorsOrigins;
  /** The map page's base map: an XYZ raster template ({z}, {x}, {y}) or a style URL (.json); null = none. */
  readonly basemapUrl: string | null;
  /** Requests per client address on /api/ paths per window; null = no limit. */
  readonly rateLimit: RateLimit | null;
  /** Addresses never limited (and the only ones /metrics answers): `addr` or `addr/prefix`. */
  readonly rateLimitExempt: readonly string[];
  /** Shared rate-limit counters (redis:// or rediss://); null = per process. */
  readonly redisUrl: string | null;
  /** Prefix of every Redis key this service writes. */
  readonly redisKeyPrefix: string;
  /** GET /metrics (Prometheus), for the exempt addresses only. */
  readonly metrics: boolean;
  readonly logFormat: 'json' | 'pretty';
  /** SIGTERM: how long /readyz answers 503 while new connections are still served, before the listener closes. */
  readonly shutdownDelayMs: number;
  /** SIGTERM/SIGINT: the longest requests in flight may take to finish before their connections are closed. */
  readonly shutdownTimeoutMs: number;
  /** The longest a client may take to send a request line and its headers. */
  readonly headersTimeoutMs: number;
  /** The longest a client may take to send a whole request. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** Longest request target (path and query) accepted; longer: 414. */
  readonly maxUrlBytes: number;
  /** import/validate: the size limits of one record (src/catalogue/limits.ts). */
  readonly catalogueLimits: CatalogueLimits;
}

export interface RateLimit {
  readonly max: number;
  readonly windowMs: number;
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
  corsOrigins?: string;
  basemapUrl?: string;
  rateLimit?: string;
  rateLimitExempt?: string;
  redisUrl?: string;
  redisKeyPrefix?: string;
  metrics?: string;
  logFormat?: string;
  shutdownDelayMs?: string;
  shutdownTimeoutMs?: string;
  headersTimeoutMs?: string;
  requestTimeoutMs?: string;
  keepAliveTimeoutMs?: string;
  maxUrlBytes?: string;
  maxStringChars?: string;
  maxPositions?: string;
  maxRecordBytes?: string;
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
  corsOrigins: 'CORS_ORIGINS',
  basemapUrl: 'BASEMAP_URL',
  rateLimit: 'RATE_LIMIT',
  rateLimitExempt: 'RATE_LIMIT_EXEMPT',
  redisUrl: 'REDIS_URL',
  redisKeyPrefix: 'REDIS_KEY_PREFIX',
  metrics: 'METRICS',
  logFormat: 'LOG_FORMAT',
  shutdownDelayMs: 'SHUTDOWN_DELAY_MS',
  shutdownTimeoutMs: 'SHUTDOWN_TIMEOUT_MS',
  headersTimeoutMs: 'HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'KEEP_ALIVE_TIMEOUT_MS',
  maxUrlBytes: 'MAX_URL_BYTES',
  ...(Object.fromEntries(CATALOGUE_LIMITS.map((l) => [l.key, l.env])) as Record<keyof CatalogueLimits, string>),
};

/**
 * Settings where a value that is set but empty means something (README, Settings): no fixed
 * base, only BASE_URL's host, no media, no origin, no base map, nobody exempt, no Redis, no
 * key prefix, and off for a switch. Any other setting set empty is refused, not defaulted.
 */
const EMPTY_HAS_MEANING: ReadonlySet<keyof RawSettings> = new Set<keyof RawSettings>([
  'baseUrl', 'allowedHosts', 'mediaRoot', 'corsOrigins', 'basemapUrl', 'rateLimitExempt', 'redisUrl', 'redisKeyPrefix',
  'trustProxy', 'compress', 'metrics',
]);

/** Flags not spelled `--` + the setting's name in kebab case (`--log-level`). */
const FLAG_NAMES: Partial<Record<keyof RawSettings, string>> = { database: '--db', databaseSchema: '--schema' };

/** The settings the environment gives, by their RawSettings names; a variable set empty counts as set. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): RawSettings {
  const settings: RawSettings = {};
  for (const [key, name] of Object.entries(ENV_NAMES) as [keyof RawSettings, string][]) {
    const value = env[name];
    if (value === undefined) continue;
    refuseEmpty(key, value, `${name} is set but empty`, 'unset it');
    settings[key] = value;
  }
  return settings;
}

function refuseEmpty(key: keyof RawSettings, value: string, what: string, leaveOut: string): void {
  if (value.trim() !== '' || EMPTY_HAS_MEANING.has(key)) return;
  throw new ConfigError(`${what}: give it a value, or ${leaveOut} for the default.`);
}

function flagName(key: keyof RawSettings): string {
  return FLAG_NAMES[key] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Flags win over the environment, which wins over the defaults. */
export function loadConfig(flags: RawSettings = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const given = definedOnly(flags);
  for (const [key, value] of Object.entries(given) as [keyof RawSettings, string][]) refuseEmpty(key, value, `${flagName(key)} is empty`, 'leave it out');
  const raw: RawSettings = { ...settingsFromEnv(env), ...given };
  const baseUrl = orNone(raw.baseUrl, parseBaseUrl);
  return Object.freeze({
    database: parseDatabase(raw.database ?? DEFAULT_DATABASE),
    databaseSchema: parseSchemaName(raw.databaseSchema ?? DEFAULT_SCHEMA),
    poolSize: parseWholeNumber('PG_POOL_SIZE', raw.poolSize ?? '10', 1, 1000),
    dbTimeoutMs: parseWholeNumber('DB_TIMEOUT_MS', raw.dbTimeoutMs ?? '800', 50, 600_000),
    versionPollMs: parseWholeNumber('VERSION_POLL_MS', raw.versionPollMs ?? '1000', 50, 60_000),
    port: parsePort(raw.port ?? '8000'),
    host: raw.host ?? '127.0.0.1',
    baseUrl,
    allowedHosts: Object.freeze(parseAllowedHosts(raw.allowedHosts, baseUrl)),
    mediaRoot: orNone(raw.mediaRoot, (root) => root),
    trustProxy: parseBoolean('TRUST_PROXY', raw.trustProxy ?? '0'),
    logLevel: parseLogLevel(raw.logLevel ?? 'info'),
    cacheControl: raw.cacheControl ?? 'public, max-age=60',
    cacheMaxBytes: parseWholeNumber('CACHE_MAX_MB', raw.cacheMaxMb ?? '16', 0, 100_000) * 1024 * 1024,
    compress: parseBoolean('COMPRESS', raw.compress ?? '0'),
    corsOrigins: parseCorsOrigins(raw.corsOrigins ?? '*'),
    basemapUrl: orNone(raw.basemapUrl, parseBasemapUrl),
    rateLimit: parseRateLimit(raw.rateLimit ?? '1000/day'),
    rateLimitExempt: Object.freeze(parseAddressList(raw.rateLimitExempt ?? '127.0.0.0/8,::1')),
    redisUrl: orNone(raw.redisUrl, parseRedisUrl),
    redisKeyPrefix: raw.redisKeyPrefix ?? 'heritage-api:',
    metrics: parseBoolean('METRICS', raw.metrics ?? '1'),
    logFormat: parseLogFormat(raw.logFormat ?? 'json'),
    ...parseConnectionLimits(raw),
    catalogueLimits: parseCatalogueLimits(raw),
  });
}

/** Each record limit: its setting, or the default of the table in src/catalogue/limits.ts. */
function parseCatalogueLimits(raw: RawSettings): CatalogueLimits {
  return Object.freeze(Object.fromEntries(CATALOGUE_LIMITS.map((l) => [
    l.key,
    parseWholeNumber(l.env, raw[l.key] ?? String(l.defaultValue), 1, LIMIT_CEILING),
  ])) as unknown as CatalogueLimits);
}

function definedOnly(settings: RawSettings): RawSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as RawSettings;
}

/** Absent or empty: none (null); otherwise parsed. */
function orNone<T>(value: string | undefined, parse: (value: string) => T): T | null {
  return value === undefined || value.trim() === '' ? null : parse(value);
}

/** A SQLite file path or a postgres:// URL; any other `scheme://` is refused before a file of that name is made. */
export function parseDatabase(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (scheme === undefined || /^postgres(ql)?$/i.test(scheme)) return value;
  // Only the scheme is echoed: the rest may hold a password.
  throw new ConfigError(`--db / DATABASE_URL: ${scheme}:// is not a database heritage-api reads; give a SQLite file path (such as ./data/catalogue.db) or a postgres:// or postgresql:// URL.`);
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

/** An http(s) XYZ raster template with {z}, {x} and {y}, or a MapLibre style URL ending in .json. */
export function parseBasemapUrl(value: string): string {
  const expected = 'an http(s) XYZ template such as https://tile.example.org/{z}/{x}/{y}.png, or a style URL ending in .json';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`BASEMAP_URL must be ${expected}, not "${value}".`);
  }
  const template = ['{z}', '{x}', '{y}'].every((p) => value.includes(p));
  const style = url.pathname.endsWith('.json');
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !(template || style)) {
    throw new ConfigError(`BASEMAP_URL must be ${expected}, not "${value}".`);
  }
  return value;
}

/** Comma-separated patterns; by default the loopback names; BASE_URL's host always (empty: only it). */
export function parseAllowedHosts(value: string | undefined, baseUrl: string | null): string[] {
  const hosts = value === undefined ? [...DEFAULT_ALLOWED_HOSTS] : value.split(',').map((h) => h.trim().toLowerCase());
  if (baseUrl !== null) hosts.push(new URL(baseUrl).hostname.toLowerCase());
  const allowed = [...new Set(hosts.filter((h) => h !== ''))];
  if (allowed.length === 0) throw new ConfigError('ALLOWED_HOSTS is empty and there is no BASE_URL, so every request would be refused: list host names (or * for any), set BASE_URL, or unset ALLOWED_HOSTS for the default.');
  return allowed;
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

export type CorsOrigins = '*' | 'off' | readonly string[];

/** `*`, `off` (or empty: no origin), or comma-separated origins (`https://app.example.org,http://localhost:3000`). */
export function parseCorsOrigins(value: string): CorsOrigins {
  const v = value.trim();
  if (v === '*' || v === '' || v.toLowerCase() === 'off') return v === '*' ? '*' : 'off';
  const origins = v.split(',').map((o) => o.trim()).filter((o) => o !== '');
  if (origins.length === 0) throw new ConfigError(`CORS_ORIGINS must be *, off, or comma-separated origins, not "${value}".`);
  return Object.freeze(origins.map(parseOrigin));
}

/** An origin as browsers send it: scheme, host and a port only when not the default. */
function parseOrigin(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  const bare = url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' &&
    !url.search && !url.hash && !url.username && !url.password;
  if (url === null || !bare) {
    throw new ConfigError(`CORS_ORIGINS: "${value}" is not an origin such as https://app.example.org or http://localhost:3000.`);
  }
  return url.origin;
}

function parseLogLevel(value: string): string {
  if (!LOG_LEVELS.includes(value)) throw new ConfigError(`log level must be one of ${LOG_LEVELS.join(', ')}, not "${value}".`);
  return value;
}

const RATE_WINDOWS: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** `N/second|minute|hour|day` (DRF's throttle rate syntax) or `off`. */
export function parseRateLimit(value: string): RateLimit | null {
  const v = value.trim().toLowerCase();
  if (v === 'off') return null;
  const match = /^(\d{1,9})\s*\/\s*(second|minute|hour|day)$/.exec(v);
  const max = match ? Number(match[1]) : 0;
  if (!match || max < 1) throw new ConfigError(`RATE_LIMIT must be N/second, N/minute, N/hour or N/day (N at least 1), or off; not "${value}".`);
  return Object.freeze({ max, windowMs: RATE_WINDOWS[match[2]!]! });
}

/** Comma-separated addresses or CIDR blocks (`10.0.0.0/8`, `::1`); empty = none. */
export function parseAddressList(value: string): string[] {
  const entries = value.split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? 0 : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (family === 0 || extra !== undefined || bits < 0 || bits > (family === 4 ? 32 : 128)) {
      throw new ConfigError(`RATE_LIMIT_EXEMPT must list IP addresses or CIDR blocks such as 127.0.0.0/8,::1; "${entry}" is not one.`);
    }
  }
  return entries;
}

export function parseRedisUrl(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:')) {
    // The value is not echoed: it may hold a password.
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379.');
  }
  return value;
}

function parseLogFormat(value: string): 'json' | 'pretty' {
  if (value !== 'json' && value !== 'pretty') throw new ConfigError(`log format must be json or pretty, not "${value}".`);
  return value;
}

/** Timeouts and limits of connections (why each default: src/http/protocol/limits.ts). */
function parseConnectionLimits(raw: RawSettings) {
  const headersTimeoutMs = parseWholeNumber('HEADERS_TIMEOUT_MS', raw.headersTimeoutMs ?? '10000', 100, 600_000);
  const requestTimeoutMs = parseWholeNumber('REQUEST_TIMEOUT_MS', raw.requestTimeoutMs ?? '30000', 100, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(`REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must not be below HEADERS_TIMEOUT_MS (${headersTimeoutMs}): headers are part of the request.`);
  }
  return {
    // Long enough for a load balancer probing /readyz every second or two to see it fail.
    shutdownDelayMs: parseWholeNumber('SHUTDOWN_DELAY_MS', raw.shutdownDelayMs ?? '5000', 0, 600_000),
    shutdownTimeoutMs: parseWholeNumber('SHUTDOWN_TIMEOUT_MS', raw.shutdownTimeoutMs ?? '10000', 0, 3_600_000),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: parseWholeNumber('KEEP_ALIVE_TIMEOUT_MS', raw.keepAliveTimeoutMs ?? '5000', 100, 3_600_000),
    // Node refuses a request line and headers above 16 KiB (431) before any of this runs.
    maxUrlBytes: parseWholeNumber('MAX_URL_BYTES', raw.maxUrlBytes ?? '8192', 256, 16_384),
  };
}
