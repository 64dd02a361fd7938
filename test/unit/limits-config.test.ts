// The shutdown deadline, connection timeouts and URL limit: defaults, environment, refusals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('SHUTDOWN_TIMEOUT_MS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_URL_BYTES', () => {
  const pick = (c: ReturnType<typeof loadConfig>) =>
    [c.shutdownTimeoutMs, c.headersTimeoutMs, c.requestTimeoutMs, c.keepAliveTimeoutMs, c.maxUrlBytes];

  test('defaults: 10 s, 10 s, 30 s, 5 s, 8 KiB', () => {
    assert.deepEqual(pick(loadConfig({}, {})), [10_000, 10_000, 30_000, 5_000, 8192]);
  });

  test('from the environment, flags winning', () => {
    const env = { SHUTDOWN_TIMEOUT_MS: '0', HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '3000', KEEP_ALIVE_TIMEOUT_MS: '65000', MAX_URL_BYTES: '1024' };
    assert.deepEqual(pick(loadConfig({}, env)), [0, 2000, 3000, 65_000, 1024]);
    assert.equal(loadConfig({ shutdownTimeoutMs: '7' }, env).shutdownTimeoutMs, 7);
  });

  const bad: [string, Record<string, string>][] = [
    ['SHUTDOWN_TIMEOUT_MS', { SHUTDOWN_TIMEOUT_MS: 'soon' }],
    ['HEADERS_TIMEOUT_MS', { HEADERS_TIMEOUT_MS: '10' }],
    ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '-1' }],
    ['REQUEST_TIMEOUT_MS (1000) must not be below HEADERS_TIMEOUT_MS (2000)', { HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '1000' }],
    ['KEEP_ALIVE_TIMEOUT_MS', { KEEP_ALIVE_TIMEOUT_MS: '1.5' }],
    ['MAX_URL_BYTES', { MAX_URL_BYTES: '100000' }],
    ['MAX_URL_BYTES', { MAX_URL_BYTES: '10' }],
  ];
  for (const [what, env] of bad) {
    test(`${JSON.stringify(env)} is refused with a sentence naming ${what}`, () => {
      assert.throws(() => loadConfig({}, env), (e) => e instanceof ConfigError && e.message.includes(what));
    });
  }
});
