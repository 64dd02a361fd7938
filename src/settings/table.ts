// The one table of settings. Config's type and its reading (src/config.ts), the commands'
// flags and their --help (src/cli/setting-flags.ts) and the Settings table of
// docs/operators.md (checked by test/unit/readme-settings.test.ts) all derive from it.
import { CATALOGUE_LIMITS, LIMIT_CEILING, type LimitDefinition } from '../catalogue/limits.js';
import {
  LOG_FORMATS, LOG_LEVELS, oneOf, orNone, parseAddressList, parseBaseUrl, parseBasemapUrl, parseCorsOrigins, parseDatabase,
  countryCode, trimmed, parseFolder, parseLinkUrl, parseHostList, parsePort, parseRateLimit, parseRedisUrl, parseSchemaName, parseSwitch, text, wholeNumber, type Parser,
} from './parsers.js';

/** The commands whose flags are settings. */
export type SettingCommand = 'serve' | 'import' | 'apply' | 'migrate' | 'export' | 'validate' | 'diff' | 'users';

export interface SettingFlag {
  readonly name: string;
  /** The value's name in --help (`<path>`); absent: a switch, on when given. */
  readonly value?: string;
  readonly commands: readonly SettingCommand[];
}

export interface Setting<T> {
  readonly env: string;
  /** Absent: set by the environment only. */
  readonly flag?: SettingFlag;
  /** The text parsed when the setting is given nowhere ('' for "none"). */
  readonly default: string;
  readonly parse: Parser<T>;
  /** What a value set empty means (docs/operators.md, Settings); absent: set empty is refused, not defaulted. */
  readonly emptyMeans?: string;
  /** 1 or 0 (docs/operators.md and --help say "on"/"off"). */
  readonly isSwitch?: boolean;
  /** A closed list of values, which commander also offers and checks for the flag. */
  readonly choices?: readonly string[];
  readonly help: string;
}

const SERVE: readonly SettingCommand[] = ['serve'];
const USES_DATABASE: readonly SettingCommand[] = ['serve', 'import', 'apply', 'migrate', 'export', 'users'];
const READS_CATALOGUES: readonly SettingCommand[] = ['import', 'apply', 'validate', 'diff'];

function serveFlag(name: string, value?: string): SettingFlag {
  return { name, value, commands: SERVE };
}

function onOff(env: string, defaultValue: '0' | '1', help: string, flag?: SettingFlag): Setting<boolean> {
  return { env, flag, default: defaultValue, parse: parseSwitch, isSwitch: true, emptyMeans: 'off', help };
}

function limitSetting(limit: LimitDefinition): Setting<number> {
  const flag = { name: limit.flag, value: '<n>', commands: READS_CATALOGUES };
  return { env: limit.env, flag, default: String(limit.defaultValue), parse: wholeNumber(1, LIMIT_CEILING), help: limit.help };
}

/** Timeouts and limits of connections (why each default: src/http/protocol/limits.ts). */
const CONNECTION_LIMITS = {
  // The delay: long enough for a load balancer probing /readyz every second or two to see it fail.
  shutdownDelayMs: {
    env: 'SHUTDOWN_DELAY_MS', flag: serveFlag('--shutdown-delay-ms', '<ms>'), default: '5000', parse: wholeNumber(0, 600_000),
    help: 'on SIGTERM, /readyz answers 503 and new connections are still served this long before the listener closes',
  },
  shutdownTimeoutMs: {
    env: 'SHUTDOWN_TIMEOUT_MS', default: '10000', parse: wholeNumber(0, 3_600_000),
    help: 'on SIGTERM/SIGINT, the longest requests in flight may take to finish before their connections are closed',
  },
  headersTimeoutMs: {
    env: 'HEADERS_TIMEOUT_MS', default: '10000', parse: wholeNumber(100, 600_000),
    help: 'the longest a client may take to send a request line and its headers',
  },
  requestTimeoutMs: {
    env: 'REQUEST_TIMEOUT_MS', default: '30000', parse: wholeNumber(100, 3_600_000),
    help: 'the longest a client may take to send a whole request (at least HEADERS_TIMEOUT_MS)',
  },
  keepAliveTimeoutMs: {
    env: 'KEEP_ALIVE_TIMEOUT_MS', default: '5000', parse: wholeNumber(100, 3_600_000),
    help: 'an idle keep-alive connection is closed after this long',
  },
  // Node refuses a request line and headers above 16 KiB (431) before any of this runs.
  maxUrlBytes: {
    env: 'MAX_URL_BYTES', default: '8192', parse: wholeNumber(256, 16_384),
    help: 'longest request target (path and query) accepted; longer: 414',
  },
} as const satisfies Record<string, Setting<unknown>>;

/**
 * How much costly work one process runs at once, by class (src/work/classes.ts says which
 * requests are of which class); past it a request waits its turn (at most 5 × DB_TIMEOUT_MS,
 * behind at most 16 or 4 times as many) or is refused at once with a 503.
 */
const WORK_LIMITS = {
  workReads: {
    env: 'WORK_READS', default: '2', parse: wholeNumber(1, 256),
    help: 'store reads beyond a small bound (filtered pages, text searches, tiles, the map\'s data) run at once, each in a worker thread',
  },
  workGeometryFilters: {
    env: 'WORK_GEOMETRY_FILTERS', default: '1', parse: wholeNumber(1, 256),
    help: 'CQL2 filters with a polygon or line (S_INTERSECTS) run at once',
  },
  workLargePages: {
    env: 'WORK_LARGE_PAGES', default: '1', parse: wholeNumber(1, 256),
    help: 'OGC items pages of more than 100 items made at once',
  },
  workDownloads: {
    env: 'WORK_DOWNLOADS', default: '2', parse: wholeNumber(1, 256),
    help: 'downloads (f=geojson, csv, fgb, gpkg) sent at once, each made in a worker thread',
  },
  workBuilds: {
    env: 'WORK_BUILDS', default: '1', parse: wholeNumber(1, 256),
    help: 'GeoPackage files built at once (in worker threads); requests for the same file share its build',
  },
  workPictures: {
    // One: a tile from a decoded picture takes 10–20 ms, so one at a time serves a viewer's screenful quickly, and the render process stays under 300 MB beside a crowd of 10-megapixel renders (two at once took it to 480 MB: the isolation test).
    env: 'WORK_PICTURES', default: '1', parse: wholeNumber(1, 64),
    help: 'IIIF picture renders made at once, in a process of their own at the lowest priority; 16 more per render may wait, the rest are refused (503)',
  },
  iiifMaxArea: {
    // 2048 × 2048: a full-HD screen's picture twice over (deep zoom asks for tiles, not this). Ten megapixels (Cantaloupe's max_pixels) took the render process to 281 MB under the isolation test's crowd of full/max renders and the server with it past 1 GB in CI.
    env: 'IIIF_MAX_AREA', default: '4194304', parse: wholeNumber(65_536, 1_000_000_000),
    help: 'the most pixels one IIIF render may have (its info.json\'s maxArea; full/max is scaled down to it)',
  },
  iiifMaxSide: {
    env: 'IIIF_MAX_SIDE', default: '8192', parse: wholeNumber(512, 65_536),
    help: 'the widest and highest one IIIF render may be, in pixels (maxWidth and maxHeight); upscaling (^) is served up to it',
  },
  iiifCacheMb: {
    env: 'IIIF_CACHE_MB', default: '64', parse: wholeNumber(0, 100_000),
    help: 'memory for rendered IIIF pictures (tiles, sizes), in MB, kept by the picture and the request whatever the catalogue\'s version (0: none kept)',
  },
  maxAnswerBytes: {
    env: 'MAX_ANSWER_BYTES', default: '2000000', parse: wholeNumber(100_000, 1_000_000_000),
    help: 'an OGC items page ends before the item that would take its footprints past this many bytes (at least one item; its next link goes on from there)',
  },
} as const satisfies Record<string, Setting<unknown>>;

/** What the visitors' site (src/render/site/) says of the catalogue; the defaults describe the demo. */
const SITE_TEXTS = {
  siteTitle: {
    env: 'SITE_TITLE', default: 'Histories of Whitechapel', parse: trimmed, help: 'the catalogue\'s name, on every page for people',
  },
  siteDescription: {
    env: 'SITE_DESCRIPTION', parse: trimmed,
    default: 'The buildings and places of Whitechapel in London\'s East End, street by street: their history, with the pictures, writing and films that residents and historians have gathered.',
    help: 'what the catalogue is, in a sentence or two: the home page\'s lead and its description for search engines',
  },
  sitePublisher: {
    env: 'SITE_PUBLISHER', default: 'The Whitechapel heritage project (demo)', parse: trimmed,
    help: 'who publishes the catalogue: the home page and each record\'s citation',
  },
  siteLicence: {
    env: 'SITE_LICENCE', default: 'CC BY-NC 4.0', parse: trimmed,
    help: 'the licence of the catalogue\'s text, and of each picture not marked as under copyright',
  },
  siteLicenceUrl: {
    env: 'SITE_LICENCE_URL', default: 'https://creativecommons.org/licenses/by-nc/4.0/', parse: orNone(parseLinkUrl), emptyMeans: 'the licence is named without a link',
    help: 'where the licence\'s text is read',
  },
  siteLocality: {
    env: 'SITE_LOCALITY', default: 'London', parse: orNone(text), emptyMeans: 'no locality in the records\' addresses',
    help: 'the town or city of every address, for the records\' structured data (schema.org addressLocality)',
  },
  siteCountry: {
    env: 'SITE_COUNTRY', default: 'GB', parse: orNone(countryCode), emptyMeans: 'no country in the records\' addresses',
    help: 'the ISO 3166-1 country code of every address (schema.org addressCountry)',
  },
} as const satisfies Record<string, Setting<unknown>>;

export const SETTINGS = {
  database: {
    env: 'DATABASE_URL', flag: { name: '--db', value: '<path>', commands: USES_DATABASE }, default: './data/catalogue.db',
    parse: parseDatabase, help: 'SQLite database file or postgres:// URL',
  },
  databaseSchema: {
    env: 'DATABASE_SCHEMA', flag: { name: '--schema', value: '<name>', commands: USES_DATABASE }, default: 'heritage',
    parse: parseSchemaName, help: 'PostgreSQL schema holding the catalogue',
  },
  poolSize: { env: 'PG_POOL_SIZE', default: '10', parse: wholeNumber(1, 1000), help: 'PostgreSQL: connections per process for requests (downloads have half as many more of their own)' },
  dbTimeoutMs: {
    env: 'DB_TIMEOUT_MS', default: '800', parse: wholeNumber(50, 600_000),
    help: 'the longest a read may take before the answer is a 503 (PostgreSQL: the statement is cancelled; a costly read\'s worker thread: ended after this much of its CPU time), and a fifth of the longest a costly request waits for its turn',
  },
  mapIndexBatch: {
    // 20,000 boxes: 80–250 ms on SQLite on a loaded 2-core machine (50,000: 200–620 ms), so a national catalogue's 400,000 (3–6 s read whole) is read within DB_TIMEOUT_MS a batch.
    env: 'MAP_INDEX_BATCH', default: '20000', parse: wholeNumber(1, 1_000_000),
    help: 'footprints\' boxes read per batch when the map views\' box index is built (in a worker thread, each batch within DB_TIMEOUT_MS)',
  },
  versionPollMs: {
    // 500: a change made through one process (an approval) is served by every other within a second (issue 45); a poll is one indexed row.
    env: 'VERSION_POLL_MS', default: '500', parse: wholeNumber(50, 60_000),
    help: 'how often a server checks whether a new catalogue was imported',
  },
  maxReplicaLagMs: {
    env: 'MAX_REPLICA_LAG_MS', default: '', parse: orNone(wholeNumber(0, 86_400_000)), emptyMeans: 'ready whatever the lag',
    help: 'PostgreSQL replica: /readyz answers 503 while the replica is further behind its primary than this',
  },
  port: { env: 'PORT', flag: serveFlag('--port', '<port>'), default: '8000', parse: parsePort, help: 'port to listen on' },
  host: { env: 'HOST', flag: serveFlag('--host', '<host>'), default: '127.0.0.1', parse: text, help: 'address to listen on' },
  baseUrl: {
    env: 'BASE_URL', flag: serveFlag('--base-url', '<url>'), default: '', parse: orNone(parseBaseUrl), emptyMeans: 'links from the request\'s Host',
    help: 'absolute base of every link, e.g. https://example.org; without it, links are built from the request\'s Host',
  },
  allowedHosts: {
    env: 'ALLOWED_HOSTS', flag: serveFlag('--allowed-hosts', '<list>'), default: 'localhost,127.0.0.1,[::1]', parse: parseHostList,
    emptyMeans: 'only BASE_URL\'s host',
    help: 'comma-separated Host names accepted; .example.org for subdomains, * for any; the base URL\'s host is always accepted',
  },
  mediaRoot: {
    env: 'MEDIA_ROOT', flag: serveFlag('--media-root', '<dir>'), default: '', parse: orNone(text), emptyMeans: 'no media folder',
    help: 'serve the files of this folder under /media/',
  },
  primaryUrl: {
    env: 'PRIMARY_URL', flag: serveFlag('--primary-url', '<url>'), default: '', parse: orNone(parseBaseUrl), emptyMeans: 'none: on a replica, the contributors\' pages answer 503',
    help: 'on a read-only PostgreSQL replica: the primary\'s base URL, where every account, contribution and review request is sent (307)',
  },
  trustProxy: onOff('TRUST_PROXY', '0', 'honour X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For', serveFlag('--trust-proxy')),
  logLevel: {
    env: 'LOG_LEVEL', flag: serveFlag('--log-level', '<level>'), default: 'info', parse: oneOf('log level', LOG_LEVELS), choices: LOG_LEVELS,
    help: 'log level',
  },
  cacheControl: { env: 'CACHE_CONTROL', default: 'public, max-age=60', parse: text, help: 'Cache-Control of every 200' },
  cacheMaxMb: {
    env: 'CACHE_MAX_MB', default: '16', parse: wholeNumber(0, 100_000),
    help: 'memory for rendered answers, in MB (0: no cache)',
  },
  downloadCacheDir: {
    env: 'DOWNLOAD_CACHE_DIR', default: 'auto', parse: orNone(parseFolder('heritage-api-downloads')),
    emptyMeans: 'no kept files: each GeoPackage download is built for its request',
    help: 'folder of each collection\'s whole GeoPackage, built once per catalogue version (auto: heritage-api-downloads-<uid> in the system\'s temporary folder); processes on one machine may share it',
  },
  // On by default (issue 34): a cached answer is compressed once, so a client that asks pays nothing per request, and one that does not pays a Vary header.
  compress: onOff('COMPRESS', '1', 'gzip or brotli bodies by Accept-Encoding, each compressed once (off: a proxy in front compresses)', serveFlag('--compress')),
  corsOrigins: {
    env: 'CORS_ORIGINS', default: '*', parse: parseCorsOrigins, emptyMeans: 'no origin',
    help: 'origins whose web pages may read /api/, /ogc/, /tiles/, /media/ and /iiif/: * (any), comma-separated origins, or off',
  },
  basemapUrl: {
    env: 'BASEMAP_URL', default: '', parse: orNone(parseBasemapUrl), emptyMeans: 'no base map',
    help: 'the map page\'s base map: an XYZ raster template ({z}, {x}, {y}) or a style URL (.json)',
  },
  mapMatchesViewFootprints: {
    // Bounds each answer's work by the view, whatever the catalogue: a street's view holds hundreds (issue 48).
    env: 'MAP_MATCHES_VIEW_FOOTPRINTS', default: '10000', parse: wholeNumber(1, 1_000_000),
    help: 'the most footprints a map view may hold for /map/matches.json to list the search\'s matches in it; a wider view lists none (the map asks the reader to zoom in)',
  },
  rateLimit: {
    env: 'RATE_LIMIT', default: '1000/day', parse: parseRateLimit,
    help: 'requests per client address to the paths that run a query the client chooses (/api/, /ogc/, /map/matches.json, /map/labels.json, /map/streets.json, /search/): N/second, N/minute, N/hour, N/day, or off',
  },
  rateLimitExempt: {
    env: 'RATE_LIMIT_EXEMPT', default: '127.0.0.0/8,::1', parse: parseAddressList, emptyMeans: 'nobody is exempt',
    help: 'addresses and CIDR blocks never limited, and the only ones /metrics answers',
  },
  redisUrl: {
    env: 'REDIS_URL', default: '', parse: orNone(parseRedisUrl), emptyMeans: 'no Redis',
    help: 'rate-limit counters and failed sign-ins shared in Redis (redis:// or rediss://); without it, per process',
  },
  redisKeyPrefix: {
    env: 'REDIS_KEY_PREFIX', default: 'heritage-api:', parse: text, emptyMeans: 'keys without a prefix',
    help: 'prefix of every Redis key this service writes',
  },
  ...SITE_TEXTS,
  metrics: onOff('METRICS', '1', 'GET /metrics (Prometheus), for the exempt addresses only'),
  contributions: onOff('CONTRIBUTIONS', '0', 'the contributors\' pages: accounts (/account/), contributions of pictures (kept in the database), writing and video links, and the editors\' queue', serveFlag('--contributions')),
  logFormat: {
    env: 'LOG_FORMAT', flag: serveFlag('--log-format', '<format>'), default: 'json', parse: oneOf('log format', LOG_FORMATS), choices: LOG_FORMATS,
    help: 'json lines, or pretty for a terminal',
  },
  ...CONNECTION_LIMITS,
  ...WORK_LIMITS,
  maxStringChars: limitSetting(CATALOGUE_LIMITS.maxStringChars),
  maxPositions: limitSetting(CATALOGUE_LIMITS.maxPositions),
  maxRecordBytes: limitSetting(CATALOGUE_LIMITS.maxRecordBytes),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingKey = keyof typeof SETTINGS;

/** The typed value of each setting, as its parser makes it. */
export type SettingValues = { readonly [K in SettingKey]: ReturnType<(typeof SETTINGS)[K]['parse']> };

/** Settings as given by flags or the environment: all text, all optional. */
export type RawSettings = { [K in SettingKey]?: string };

const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(SETTINGS, key);

/** Every key, in the table's order. */
export const SETTING_KEYS: readonly SettingKey[] = Object.keys(SETTINGS).filter(isSettingKey);

/** Any entry of the table, its value type forgotten (for what treats them all alike). */
export function settingOf(key: SettingKey): Setting<unknown> {
  return SETTINGS[key];
}

/** How a sentence names a setting: `--port / PORT`, or the variable alone. */
export function settingName(key: SettingKey): string {
  const { flag, env } = settingOf(key);
  return flag === undefined ? env : `${flag.name} / ${env}`;
}

/** The default as docs/operators.md and --help show it: `off`/`on`, `none`, or the value (literal: true). */
export function shownDefault(setting: Setting<unknown>): { text: string; literal: boolean } {
  if (setting.isSwitch) return { text: setting.default === '1' ? 'on' : 'off', literal: false };
  return setting.default === '' ? { text: 'none', literal: false } : { text: setting.default, literal: true };
}

/** The variable as docs/operators.md and --help show it: a switch that is off by default as `NAME=1`. */
export function shownVariable(setting: Setting<unknown>): string {
  return setting.isSwitch && setting.default === '0' ? `${setting.env}=1` : setting.env;
}
