import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_CATALOGUE_LIMITS } from '../../src/catalogue/limits.js';
import { ConfigError, loadConfig, parseBaseUrl } from '../../src/config.js';
import { hostDomain, isAllowedHost } from '../../src/http/protocol/host.js';

describe('loadConfig: defaults, then environment, then flags', () => {
  test('defaults', () => {
    const config = loadConfig({}, {});
    assert.deepEqual(
      { ...config },
      { database: './data/catalogue.db', port: 8000, host: '127.0.0.1', baseUrl: null, allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
        mediaRoot: null, primaryUrl: null, trustProxy: false, logLevel: 'info', databaseSchema: 'heritage', poolSize: 10, dbTimeoutMs: 800,
        versionPollMs: 500, maxReplicaLagMs: null, cacheControl: 'public, max-age=60', cacheMaxBytes: 16 * 1024 * 1024, compress: true,
        downloadCacheDir: path.join(os.tmpdir(), `heritage-api-downloads-${process.getuid!()}`),
        corsOrigins: '*', basemapUrl: null, mapMatchesViewFootprints: 10_000, mapIndexBatch: 20_000, rateLimit: { max: 1000, windowMs: 86_400_000 }, rateLimitExempt: ['127.0.0.0/8', '::1'],
        redisUrl: null, redisKeyPrefix: 'heritage-api:',
        siteTitle: 'Histories of Whitechapel',
        siteDescription: "The buildings and places of Whitechapel in London's East End, street by street: their history, with the pictures, writing and films that residents and historians have gathered.",
        sitePublisher: 'The Whitechapel heritage project (demo)', siteLicence: 'CC BY-NC 4.0', siteLicenceUrl: 'https://creativecommons.org/licenses/by-nc/4.0/',
        siteLocality: 'London', siteCountry: 'GB',
        metrics: true, contributions: false, logFormat: 'json', shutdownDelayMs: 5_000, shutdownTimeoutMs: 10_000,
        headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxUrlBytes: 8192,
        workReads: 2, workGeometryFilters: 1, workLargePages: 1, workDownloads: 2, workBuilds: 1, workPictures: 1, iiifMaxArea: 4_194_304, iiifMaxSide: 8192, iiifCacheMb: 64, maxAnswerBytes: 2_000_000,
        catalogueLimits: { maxStringChars: DEFAULT_CATALOGUE_LIMITS.maxStringChars, maxPositions: DEFAULT_CATALOGUE_LIMITS.maxPositions, maxRecordBytes: DEFAULT_CATALOGUE_LIMITS.maxRecordBytes } },
    );
    assert.ok(Object.isFrozen(config));
  });
  test('environment mirrors the flags', () => {
    const config = loadConfig({}, { DATABASE_URL: 'x.db', PORT: '9', HOST: '0.0.0.0', BASE_URL: 'https://e.org/', ALLOWED_HOSTS: 'a.org', MEDIA_ROOT: 'm', TRUST_PROXY: '1', LOG_LEVEL: 'warn',
      DATABASE_SCHEMA: 'cat', PG_POOL_SIZE: '3', DB_TIMEOUT_MS: '500', VERSION_POLL_MS: '200', MAX_REPLICA_LAG_MS: '2500',
      CACHE_CONTROL: 'no-cache', CACHE_MAX_MB: '0', COMPRESS: 'off', DOWNLOAD_CACHE_DIR: 'downloads', CORS_ORIGINS: 'https://a.org,https://b.org',
      BASEMAP_URL: 'https://tiles.example.org/{z}/{x}/{y}.png', MAP_MATCHES_VIEW_FOOTPRINTS: '2000', RATE_LIMIT: '60/minute', RATE_LIMIT_EXEMPT: '10.0.0.0/8',
      REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: 'h:',
      SITE_TITLE: ' Spitalfields Life ', SITE_DESCRIPTION: 'd', SITE_PUBLISHER: 'p', SITE_LICENCE: 'CC BY 4.0', SITE_LICENCE_URL: 'https://creativecommons.org/licenses/by/4.0/',
      SITE_LOCALITY: 'Leeds', SITE_COUNTRY: 'gb', METRICS: 'off', CONTRIBUTIONS: 'on', LOG_FORMAT: 'pretty', SHUTDOWN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '2000',
      HEADERS_TIMEOUT_MS: '3000', REQUEST_TIMEOUT_MS: '4000', KEEP_ALIVE_TIMEOUT_MS: '1000', MAX_URL_BYTES: '4096',
      WORK_READS: '5', WORK_GEOMETRY_FILTERS: '2', WORK_LARGE_PAGES: '3', WORK_DOWNLOADS: '4', WORK_BUILDS: '6', WORK_PICTURES: '3', IIIF_MAX_AREA: '1000000', IIIF_MAX_SIDE: '2048', IIIF_CACHE_MB: '8', MAX_ANSWER_BYTES: '500000',
      CATALOGUE_MAX_STRING_CHARS: '10', CATALOGUE_MAX_POSITIONS: '20', CATALOGUE_MAX_RECORD_BYTES: '30' });
    assert.deepEqual(
      { ...config },
      { database: 'x.db', port: 9, host: '0.0.0.0', baseUrl: 'https://e.org', allowedHosts: ['a.org', 'e.org'], mediaRoot: 'm', primaryUrl: null, trustProxy: true, logLevel: 'warn',
        databaseSchema: 'cat', poolSize: 3, dbTimeoutMs: 500, versionPollMs: 200, maxReplicaLagMs: 2500, cacheControl: 'no-cache', cacheMaxBytes: 0, compress: false,
        downloadCacheDir: path.join(process.cwd(), 'downloads'),
        corsOrigins: ['https://a.org', 'https://b.org'], basemapUrl: 'https://tiles.example.org/{z}/{x}/{y}.png', mapMatchesViewFootprints: 2000, mapIndexBatch: 20_000,
        rateLimit: { max: 60, windowMs: 60_000 }, rateLimitExempt: ['10.0.0.0/8'], redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: 'h:',
        siteTitle: 'Spitalfields Life', siteDescription: 'd', sitePublisher: 'p', siteLicence: 'CC BY 4.0', siteLicenceUrl: 'https://creativecommons.org/licenses/by/4.0/',
        siteLocality: 'Leeds', siteCountry: 'GB',
        metrics: false, contributions: true, logFormat: 'pretty', shutdownDelayMs: 0, shutdownTimeoutMs: 2000, headersTimeoutMs: 3000, requestTimeoutMs: 4000,
        keepAliveTimeoutMs: 1000, maxUrlBytes: 4096,
        workReads: 5, workGeometryFilters: 2, workLargePages: 3, workDownloads: 4, workBuilds: 6, workPictures: 3, iiifMaxArea: 1_000_000, iiifMaxSide: 2048, iiifCacheMb: 8, maxAnswerBytes: 500_000, catalogueLimits: { maxStringChars: 10, maxPositions: 20, maxRecordBytes: 30 } },
    );
  });
  test('flags win', () => {
    assert.equal(loadConfig({ port: '81' }, { PORT: '80' }).port, 81);
    assert.equal(loadConfig({ maxPositions: '5' }, { CATALOGUE_MAX_POSITIONS: '7' }).catalogueLimits.maxPositions, 5);
  });
  const whole = (name: string, min: number, max: number, value: string) => `${name} must be a whole number from ${min} to ${max}, not "${value}".`;
  const schema = (value: string) => `schema name must be lower-case letters, digits and _ (not starting with a digit), not "${value}".`;
  const bad: [Record<string, string>, string][] = [
    [{ PORT: 'http' }, 'port must be a whole number from 0 to 65535, not "http".'],
    [{ PORT: '70000' }, 'port must be a whole number from 0 to 65535, not "70000".'],
    [{ BASE_URL: 'example.org' }, 'base URL must be an absolute http(s) URL such as https://example.org, not "example.org".'],
    [{ BASE_URL: 'ftp://example.org' }, 'base URL must start with http:// or https://, not "ftp://example.org".'],
    [{ BASE_URL: 'https://e.org/?q=1' }, 'base URL must not carry a query, fragment or credentials: "https://e.org/?q=1".'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY must be 1 or 0 (true/false), not "maybe".'],
    [{ SITE_TITLE: '   ' }, 'SITE_TITLE is set but empty: give it a value, or unset it for the default.'],
    [{ SITE_COUNTRY: 'GBR' }, 'SITE_COUNTRY must be a two-letter country code such as GB, not "GBR".'],
    [{ SITE_LICENCE_URL: 'licence.html' }, 'SITE_LICENCE_URL must be an absolute http(s) URL, not "licence.html".'],
    [{ LOG_LEVEL: 'loud' }, 'log level must be one of fatal, error, warn, info, debug, trace, silent, not "loud".'],
    [{ DATABASE_SCHEMA: 'Heritage' }, schema('Heritage')], [{ DATABASE_SCHEMA: 'a;drop' }, schema('a;drop')],
    [{ PG_POOL_SIZE: '0' }, whole('PG_POOL_SIZE', 1, 1000, '0')], [{ DB_TIMEOUT_MS: 'fast' }, whole('DB_TIMEOUT_MS', 50, 600000, 'fast')],
    [{ VERSION_POLL_MS: '-1' }, whole('VERSION_POLL_MS', 50, 60000, '-1')],
    [{ MAX_REPLICA_LAG_MS: '1.5' }, whole('MAX_REPLICA_LAG_MS', 0, 86400000, '1.5')],
    [{ CACHE_MAX_MB: 'lots' }, whole('CACHE_MAX_MB', 0, 100000, 'lots')], [{ COMPRESS: 'maybe' }, 'COMPRESS must be 1 or 0 (true/false), not "maybe".'],
    [{ CATALOGUE_MAX_STRING_CHARS: '0' }, whole('CATALOGUE_MAX_STRING_CHARS', 1, 500000000, '0')],
    [{ CATALOGUE_MAX_POSITIONS: 'many' }, whole('CATALOGUE_MAX_POSITIONS', 1, 500000000, 'many')],
    [{ CATALOGUE_MAX_RECORD_BYTES: '1e6' }, whole('CATALOGUE_MAX_RECORD_BYTES', 1, 500000000, '1e6')],
    [{ CATALOGUE_MAX_RECORD_BYTES: '600000000' }, whole('CATALOGUE_MAX_RECORD_BYTES', 1, 500000000, '600000000')],
    [{ LOG_FORMAT: 'xml' }, 'log format must be json or pretty, not "xml".'],
    [{ RATE_LIMIT: 'lots' }, 'RATE_LIMIT must be N/second, N/minute, N/hour or N/day (N at least 1), or off; not "lots".'],
    [{ RATE_LIMIT_EXEMPT: '::1,10.0.0.0/33' }, 'RATE_LIMIT_EXEMPT must list IP addresses or CIDR blocks such as 127.0.0.0/8,::1; "10.0.0.0/33" is not one.'],
    [{ REDIS_URL: 'http://u:secret@h' }, 'REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379.'],
    [{ CORS_ORIGINS: 'https://a.org/app' }, 'CORS_ORIGINS: "https://a.org/app" is not an origin such as https://app.example.org or http://localhost:3000.'],
  ];
  for (const [env, message] of bad) {
    test(`${JSON.stringify(env)} is refused: ${message}`, () => {
      assert.throws(() => loadConfig({}, env), (e) => e instanceof ConfigError && e.message === message);
    });
  }
  test('base URL keeps a path prefix without the trailing slash', () => {
    assert.equal(parseBaseUrl('https://Example.org/heritage/'), 'https://example.org/heritage');
  });
});

describe('hosts', () => {
  const domains: [string, string | null][] = [
    ['localhost:8000', 'localhost'], ['Example.ORG.', 'example.org'], ['[::1]:80', '[::1]'], ['a b', null], ['x:y', null], ['', null],
  ];
  for (const [host, domain] of domains) test(`hostDomain(${host})`, () => assert.equal(hostDomain(host), domain));
  const allowed: [string, string[], boolean][] = [
    ['example.org', ['example.org'], true], ['www.example.org', ['.example.org'], true], ['example.org', ['.example.org'], true],
    ['badexample.org', ['.example.org'], false], ['anything', ['*'], true], ['evil.org', ['localhost'], false],
  ];
  for (const [domain, patterns, expected] of allowed) {
    test(`${domain} against ${patterns}`, () => assert.equal(isAllowedHost(domain, patterns), expected));
  }
});

describe('BASEMAP_URL', () => {
  test('an XYZ raster template or a style URL, kept as given', () => {
    const template = 'https://tile.example.org/{z}/{x}/{y}.png';
    assert.equal(loadConfig({}, { BASEMAP_URL: template }).basemapUrl, template);
    assert.equal(loadConfig({}, { BASEMAP_URL: 'https://maps.example.org/style.json?key=k' }).basemapUrl, 'https://maps.example.org/style.json?key=k');
    assert.equal(loadConfig({}, {}).basemapUrl, null);
  });
  for (const value of ['tiles/{z}/{x}/{y}.png', 'ftp://e.org/{z}/{x}/{y}.png', 'https://e.org/{z}/{x}.png', 'https://e.org/style']) {
    test(`refuses ${value}`, () => {
      assert.throws(() => loadConfig({}, { BASEMAP_URL: value }), (e: unknown) => e instanceof ConfigError && /^BASEMAP_URL must be an http\(s\) XYZ template/.test(e.message));
    });
  }
});

describe('CORS_ORIGINS', () => {
  test('* by default; a list or off from the environment; flags win', () => {
    assert.equal(loadConfig({}, {}).corsOrigins, '*');
    assert.deepEqual(loadConfig({}, { CORS_ORIGINS: 'https://a.org, http://localhost:3000' }).corsOrigins, ['https://a.org', 'http://localhost:3000']);
    assert.equal(loadConfig({}, { CORS_ORIGINS: 'off' }).corsOrigins, 'off');
    assert.equal(loadConfig({ corsOrigins: '*' }, { CORS_ORIGINS: 'off' }).corsOrigins, '*');
  });
  test('a value that is not an origin is refused with a sentence naming CORS_ORIGINS', () => {
    assert.throws(() => loadConfig({}, { CORS_ORIGINS: 'https://a.org/app' }), (e) => e instanceof ConfigError && e.message.includes('CORS_ORIGINS'));
  });
});

describe('a setting set empty means what it says', () => {
  // [variable, the Config field, what an empty value gives] — each differs from the default where the default is not "none".
  const meaningful: [string, string, unknown][] = [
    ['RATE_LIMIT_EXEMPT', 'rateLimitExempt', []],
    ['BASE_URL', 'baseUrl', null],
    ['MEDIA_ROOT', 'mediaRoot', null],
    ['CORS_ORIGINS', 'corsOrigins', 'off'],
    ['BASEMAP_URL', 'basemapUrl', null],
    ['REDIS_URL', 'redisUrl', null],
    ['MAX_REPLICA_LAG_MS', 'maxReplicaLagMs', null],
    ['DOWNLOAD_CACHE_DIR', 'downloadCacheDir', null],
    ['REDIS_KEY_PREFIX', 'redisKeyPrefix', ''],
    ['TRUST_PROXY', 'trustProxy', false],
    ['COMPRESS', 'compress', false],
    ['METRICS', 'metrics', false],
    ['SITE_LICENCE_URL', 'siteLicenceUrl', null],
    ['SITE_LOCALITY', 'siteLocality', null],
    ['SITE_COUNTRY', 'siteCountry', null],
  ];
  for (const [name, field, expected] of meaningful) {
    test(`${name}= gives ${JSON.stringify(expected)}`, () => {
      assert.deepEqual((loadConfig({}, { [name]: '' }) as unknown as Record<string, unknown>)[field], expected);
    });
  }

  test('ALLOWED_HOSTS= with a BASE_URL: only its host', () => {
    assert.deepEqual(loadConfig({}, { ALLOWED_HOSTS: '', BASE_URL: 'https://heritage.example.org' }).allowedHosts, ['heritage.example.org']);
  });

  test('ALLOWED_HOSTS= without a BASE_URL would refuse every request: refused with a sentence', () => {
    assert.throws(() => loadConfig({}, { ALLOWED_HOSTS: '' }), {
      name: 'Error',
      message: 'ALLOWED_HOSTS is empty and there is no BASE_URL, so every request would be refused: list host names (or * for any), set BASE_URL, or unset ALLOWED_HOSTS for the default.',
    });
  });

  const meaningless = [
    'DATABASE_URL', 'DATABASE_SCHEMA', 'PG_POOL_SIZE', 'DB_TIMEOUT_MS', 'VERSION_POLL_MS', 'PORT', 'HOST', 'LOG_LEVEL', 'CACHE_CONTROL',
    'CACHE_MAX_MB', 'RATE_LIMIT', 'LOG_FORMAT', 'SHUTDOWN_TIMEOUT_MS', 'HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS',
    'MAX_URL_BYTES',
  ];
  for (const name of meaningless) {
    for (const value of ['', ' ']) {
      test(`${name}=${JSON.stringify(value)} is refused naming ${name}, not taken for the default`, () => {
        assert.throws(() => loadConfig({}, { [name]: value }), (e: unknown) =>
          e instanceof ConfigError && e.message === `${name} is set but empty: give it a value, or unset it for the default.`);
      });
    }
  }

  test('a flag given empty is refused naming the flag', () => {
    const refused: [Record<string, string>, string][] = [[{ port: '' }, '--port'], [{ database: '' }, '--db'], [{ databaseSchema: '' }, '--schema'], [{ logLevel: '' }, '--log-level']];
    for (const [flags, flag] of refused) {
      assert.throws(() => loadConfig(flags, {}), (e: unknown) =>
        e instanceof ConfigError && e.message === `${flag} is empty: give it a value, or leave it out for the default.`);
    }
  });

  test('a flag given empty wins over the environment where empty has a meaning', () => {
    assert.equal(loadConfig({ mediaRoot: '' }, { MEDIA_ROOT: '/srv/media' }).mediaRoot, null);
    assert.equal(loadConfig({ baseUrl: '' }, { BASE_URL: 'https://e.org' }).baseUrl, null);
  });

  test('an unset variable still gives the default', () => {
    const config = loadConfig({}, { RATE_LIMIT_EXEMPT: undefined, CORS_ORIGINS: undefined });
    assert.deepEqual([config.rateLimitExempt, config.corsOrigins, config.metrics], [['127.0.0.0/8', '::1'], '*', true]);
  });
});

describe('the database setting', () => {
  const accepted = ['./data/catalogue.db', 'catalogue.db', '/srv/a b/c.db', 'file:x.db', 'postgres://h/d', 'postgresql://u@h:5432/d', 'POSTGRES://h/d'];
  for (const value of accepted) {
    test(`${value} is kept as given`, () => assert.equal(loadConfig({ database: value }, {}).database, value));
  }
  const refused: [string, string][] = [['mysql://x/y', 'mysql'], ['sqlite:///tmp/x.db', 'sqlite'], ['file:///tmp/x.db', 'file'], ['MySQL://u:secret@h/d', 'MySQL']];
  for (const [value, scheme] of refused) {
    test(`${value} is refused, naming the flag, the variable and the forms accepted`, () => {
      const message = `--db / DATABASE_URL: ${scheme}:// is not a database heritage-api reads; give a SQLite file path (such as ./data/catalogue.db) or a postgres:// or postgresql:// URL.`;
      assert.throws(() => loadConfig({ database: value }, {}), (e: unknown) => e instanceof ConfigError && e.message === message);
      assert.throws(() => loadConfig({}, { DATABASE_URL: value }), (e: unknown) => e instanceof ConfigError && e.message === message);
    });
  }
});
