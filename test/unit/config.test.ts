import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseBaseUrl } from '../../src/config.js';
import { hostDomain, isAllowedHost } from '../../src/http/host.js';

describe('loadConfig: defaults, then environment, then flags', () => {
  test('defaults', () => {
    const config = loadConfig({}, {});
    assert.deepEqual(
      { ...config },
      { database: './data/catalogue.db', port: 8000, host: '127.0.0.1', baseUrl: null, allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
        mediaRoot: null, trustProxy: false, logLevel: 'info', databaseSchema: 'heritage', poolSize: 10, dbTimeoutMs: 800,
        versionPollMs: 1000, cacheControl: 'public, max-age=60', cacheMaxBytes: 64 * 1024 * 1024, compress: false },
    );
    assert.ok(Object.isFrozen(config));
  });
  test('environment mirrors the flags', () => {
    const config = loadConfig({}, { DATABASE_URL: 'x.db', PORT: '9', HOST: '0.0.0.0', BASE_URL: 'https://e.org/', ALLOWED_HOSTS: 'a.org', MEDIA_ROOT: 'm', TRUST_PROXY: '1', LOG_LEVEL: 'warn',
      DATABASE_SCHEMA: 'cat', PG_POOL_SIZE: '3', DB_TIMEOUT_MS: '500', VERSION_POLL_MS: '200',
      CACHE_CONTROL: 'no-cache', CACHE_MAX_MB: '0', COMPRESS: '1' });
    assert.deepEqual(
      { ...config },
      { database: 'x.db', port: 9, host: '0.0.0.0', baseUrl: 'https://e.org', allowedHosts: ['a.org', 'e.org'], mediaRoot: 'm', trustProxy: true, logLevel: 'warn',
        databaseSchema: 'cat', poolSize: 3, dbTimeoutMs: 500, versionPollMs: 200, cacheControl: 'no-cache', cacheMaxBytes: 0, compress: true },
    );
  });
  test('flags win', () => {
    assert.equal(loadConfig({ port: '81' }, { PORT: '80' }).port, 81);
  });
  const bad: [string, Record<string, string>][] = [
    ['port', { PORT: 'http' }], ['port', { PORT: '70000' }], ['base URL', { BASE_URL: 'example.org' }],
    ['base URL', { BASE_URL: 'ftp://example.org' }], ['base URL', { BASE_URL: 'https://e.org/?q=1' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }], ['log level', { LOG_LEVEL: 'loud' }],
    ['schema name', { DATABASE_SCHEMA: 'Heritage' }], ['schema name', { DATABASE_SCHEMA: 'a;drop' }],
    ['PG_POOL_SIZE', { PG_POOL_SIZE: '0' }], ['DB_TIMEOUT_MS', { DB_TIMEOUT_MS: 'fast' }], ['VERSION_POLL_MS', { VERSION_POLL_MS: '-1' }],
    ['CACHE_MAX_MB', { CACHE_MAX_MB: 'lots' }], ['COMPRESS', { COMPRESS: 'maybe' }],
  ];
  for (const [what, env] of bad) {
    test(`${JSON.stringify(env)} is refused with a sentence naming ${what}`, () => {
      assert.throws(() => loadConfig({}, env), (e) => e instanceof ConfigError && e.message.includes(what));
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
