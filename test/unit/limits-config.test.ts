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

  const whole = (name: string, min: number, max: number, value: string) => `${name} must be a whole number from ${min} to ${max}, not "${value}".`;
  const bad: [Record<string, string>, string][] = [
    [{ SHUTDOWN_TIMEOUT_MS: 'soon' }, whole('SHUTDOWN_TIMEOUT_MS', 0, 3_600_000, 'soon')],
    [{ SHUTDOWN_DELAY_MS: '600001' }, whole('SHUTDOWN_DELAY_MS', 0, 600_000, '600001')],
    [{ HEADERS_TIMEOUT_MS: '10' }, whole('HEADERS_TIMEOUT_MS', 100, 600_000, '10')],
    [{ REQUEST_TIMEOUT_MS: '-1' }, whole('REQUEST_TIMEOUT_MS', 100, 3_600_000, '-1')],
    [{ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '1000' }, 'REQUEST_TIMEOUT_MS (1000) must not be below HEADERS_TIMEOUT_MS (2000): headers are part of the request.'],
    [{ KEEP_ALIVE_TIMEOUT_MS: '1.5' }, whole('KEEP_ALIVE_TIMEOUT_MS', 100, 3_600_000, '1.5')],
    [{ MAX_URL_BYTES: '100000' }, whole('MAX_URL_BYTES', 256, 16_384, '100000')],
    [{ MAX_URL_BYTES: '10' }, whole('MAX_URL_BYTES', 256, 16_384, '10')],
  ];
  for (const [env, message] of bad) {
    test(`${JSON.stringify(env)} is refused: ${message}`, () => {
      assert.throws(() => loadConfig({}, env), (e) => e instanceof ConfigError && e.message === message);
    });
  }
});
