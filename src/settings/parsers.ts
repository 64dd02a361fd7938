// A setting's text → its typed value, or a ConfigError sentence naming the setting.
// Each parser takes the value and the setting's environment variable (for the sentence).
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export class ConfigError extends Error {}

export type Parser<T> = (value: string, name: string) => T;

export interface RateLimit {
  readonly max: number;
  readonly windowMs: number;
}

export type CorsOrigins = '*' | 'off' | readonly string[];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_FORMATS = ['json', 'pretty'] as const;

/** Taken as given. */
export function text(value: string): string {
  return value;
}

/** Text without the spaces around it (a blank value is refused before, as set but empty). */
export function trimmed(value: string): string {
  return value.trim();
}

/** An ISO 3166-1 alpha-2 country code, upper-cased. */
export function countryCode(value: string, name: string): string {
  if (!/^[A-Za-z]{2}$/.test(value.trim())) throw new ConfigError(`${name} must be a two-letter country code such as GB, not "${value}".`);
  return value.trim().toUpperCase();
}

/** An absolute http(s) URL a page links to, kept as written. */
export function parseLinkUrl(value: string, name: string): string {
  const url = urlOrNull(value.trim());
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ConfigError(`${name} must be an absolute http(s) URL, not "${value}".`);
  return value.trim();
}

/** A folder made absolute; `auto`: a folder of this user's in the system's temporary folder (os.tmpdir()). */
export function parseFolder(autoName: string): Parser<string> {
  return (value) => (value === 'auto' ? path.join(os.tmpdir(), `${autoName}-${process.getuid?.() ?? 'user'}`) : path.resolve(value));
}

/** Empty (or blank) is "none" (null); otherwise parsed. */
export function orNone<T>(parse: Parser<T>): Parser<T | null> {
  return (value, name) => (value.trim() === '' ? null : parse(value, name));
}

export function wholeNumber(min: number, max: number): Parser<number> {
  return (value, name) => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= min && n <= max)) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${value}".`);
    return n;
  };
}

/** A switch: 1/true/yes/on or 0/false/no/off; empty is off. */
export function parseSwitch(value: string, name: string): boolean {
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (true/false), not "${value}".`);
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
  const url = urlOrNull(value);
  if (url === null) throw new ConfigError(`base URL must be an absolute http(s) URL such as https://example.org, not "${value}".`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`base URL must start with http:// or https://, not "${value}".`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`base URL must not carry a query, fragment or credentials: "${value}".`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** An http(s) XYZ raster template with {z}, {x} and {y}, or a MapLibre style URL ending in .json. */
export function parseBasemapUrl(value: string, name: string): string {
  const url = urlOrNull(value);
  const template = ['{z}', '{x}', '{y}'].every((p) => value.includes(p));
  if (url === null || !isHttp(url) || !(template || url.pathname.endsWith('.json'))) {
    const expected = 'an http(s) XYZ template such as https://tile.example.org/{z}/{x}/{y}.png, or a style URL ending in .json';
    throw new ConfigError(`${name} must be ${expected}, not "${value}".`);
  }
  return value;
}

function urlOrNull(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** Comma-separated Host patterns, lower-cased (empty entries are dropped once BASE_URL's host is added). */
export function parseHostList(value: string): readonly string[] {
  return value.split(',').map((h) => h.trim().toLowerCase());
}

/** A plain lower-case SQL identifier, so it can be written into SQL unquoted and safely. */
export function parseSchemaName(value: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) {
    throw new ConfigError(`schema name must be lower-case letters, digits and _ (not starting with a digit), not "${value}".`);
  }
  return value;
}

/** `*`, `off` (or empty: no origin), or comma-separated origins (`https://app.example.org,http://localhost:3000`). */
export function parseCorsOrigins(value: string, name = 'CORS_ORIGINS'): CorsOrigins {
  const v = value.trim();
  if (v === '*' || v === '' || v.toLowerCase() === 'off') return v === '*' ? '*' : 'off';
  const origins = v.split(',').map((o) => o.trim()).filter((o) => o !== '');
  if (origins.length === 0) throw new ConfigError(`${name} must be *, off, or comma-separated origins, not "${value}".`);
  return Object.freeze(origins.map((origin) => parseOrigin(origin, name)));
}

/** An origin as browsers send it: scheme, host and a port only when not the default. */
function parseOrigin(value: string, name: string): string {
  const url = urlOrNull(value);
  const bare = url !== null && isHttp(url) && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (url === null || !bare) {
    throw new ConfigError(`${name}: "${value}" is not an origin such as https://app.example.org or http://localhost:3000.`);
  }
  return url.origin;
}

/** One of a closed list, refused with the list (the log level, the log format). */
export function oneOf<const T extends string>(what: string, choices: readonly T[]): Parser<T> {
  const isChoice = (value: string): value is T => choices.some((c) => c === value);
  return (value) => {
    if (!isChoice(value)) throw new ConfigError(`${what} must be ${listed(choices)}, not "${value}".`);
    return value;
  };
}

/** `one of a, b, c` for a longer list, `a or b` for two (as the sentences always said). */
function listed(choices: readonly string[]): string {
  return choices.length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`;
}

const RATE_WINDOWS = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const isRateWindow = (unit: string): unit is keyof typeof RATE_WINDOWS => Object.hasOwn(RATE_WINDOWS, unit);

/** `N/second|minute|hour|day` (DRF's throttle rate syntax) or `off`. */
export function parseRateLimit(value: string, name: string): RateLimit | null {
  const v = value.trim().toLowerCase();
  if (v === 'off') return null;
  const [, count = '', unit = ''] = /^(\d{1,9})\s*\/\s*(second|minute|hour|day)$/.exec(v) ?? [];
  const max = Number(count);
  if (!isRateWindow(unit) || max < 1) throw new ConfigError(`${name} must be N/second, N/minute, N/hour or N/day (N at least 1), or off; not "${value}".`);
  return Object.freeze({ max, windowMs: RATE_WINDOWS[unit] });
}

/** Comma-separated addresses or CIDR blocks (`10.0.0.0/8`, `::1`); empty = none. */
export function parseAddressList(value: string, name: string): readonly string[] {
  const entries = value.split(',').map((e) => e.trim()).filter((e) => e !== '');
  const bad = entries.find((entry) => !isAddressOrBlock(entry));
  if (bad !== undefined) throw new ConfigError(`${name} must list IP addresses or CIDR blocks such as 127.0.0.0/8,::1; "${bad}" is not one.`);
  return Object.freeze(entries);
}

function isAddressOrBlock(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  const bits = prefix === undefined ? 0 : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return family !== 0 && extra === undefined && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

export function parseRedisUrl(value: string, name: string): string {
  const url = urlOrNull(value);
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:')) {
    // The value is not echoed: it may hold a password.
    throw new ConfigError(`${name} must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379.`);
  }
  return value;
}
