import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig, type Config } from '../../src/config.js';
import { perWorkerLimitWarning } from '../../src/http/operations/rate-limit.js';
import { request, type Answer } from '../support/http.js';
import { closedPort, startStallingProxy, takeRedisKeys, TEST_REDIS_URL, uniqueRedisPrefix, withRedis } from '../support/redis.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const FEATURES = '/api/v1/features/';
const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];

const throttledBody = (seconds: number) =>
  `{"detail":"Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}."}`;

function assertThrottled(answer: Answer): void {
  assert.equal(answer.status, 429);
  assert.equal(answer.headers['content-type'], 'application/json');
  const wait = Number(answer.headers['retry-after']);
  assert.ok(Number.isInteger(wait) && wait >= 1, `Retry-After ${answer.headers['retry-after']}`);
  assert.equal(answer.text, throttledBody(wait));
  assert.equal(answer.headers['ratelimit-remaining'], '0');
  assert.equal(answer.headers['ratelimit-reset'], String(wait));
}

function assertNoRateHeaders(answer: Answer): void {
  for (const name of RATE_HEADERS) assert.equal(answer.headers[name], undefined, `${name} on ${answer.status}`);
}

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describe('RATE_LIMIT=3/minute, nobody exempt', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ settings: { rateLimit: '3/minute', rateLimitExempt: '' } });
  });
  after(() => t.close());

  test('three answers count down in RateLimit-* headers; the fourth is a 429 with the original body', async () => {
    for (const remaining of [2, 1, 0]) {
      const answer = await request(t.origin, FEATURES);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['ratelimit-limit'], '3');
      assert.equal(answer.headers['ratelimit-remaining'], String(remaining));
      assert.equal(answer.headers['ratelimit-policy'], '3;w=60');
      const reset = Number(answer.headers['ratelimit-reset']);
      assert.ok(reset >= 1 && reset <= 60, `RateLimit-Reset ${reset}`);
      assert.equal(answer.headers['retry-after'], undefined);
    }
    const refused = await request(t.origin, FEATURES);
    assertThrottled(refused);
    assert.equal(refused.headers.vary, 'Accept, Accept-Encoding');
    assert.ok(refused.headers['x-request-id']);
  });

  test('the counter is per client, not per path: every API path is refused now', async () => {
    for (const url of ['/api/v1/', '/api/v1/images/?page=2', '/api/v1/features/1/', '/api/v1/no-such-thing/']) {
      assertThrottled(await request(t.origin, url));
    }
    const head = await request(t.origin, FEATURES, { method: 'HEAD' });
    assert.equal(head.status, 429);
    assert.ok(Number(head.headers['retry-after']) >= 1);
    assert.equal(head.text, '');
  });

  test('a 429 carries the CORS headers, so a script on another origin can read Retry-After', async () => {
    const answer = await request(t.origin, FEATURES, { headers: { origin: 'https://example.org' } });
    assertThrottled(answer);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.match(String(answer.headers['access-control-expose-headers']), /Retry-After/i);
  });

  test('the map page, the reference page, tiles, media, probes and /metrics are never limited', async () => {
    for (const url of ['/', '/map/', '/map/config.json', '/api/docs/', '/tiles/features/0/0/0.mvt', '/media/categories/x.png', '/healthz', '/readyz', '/metrics']) {
      const answer = await request(t.origin, url);
      assert.notEqual(answer.status, 429, url);
      assertNoRateHeaders(answer);
    }
  });
});

describe('every path that runs a query the client chooses is counted: /api/, /ogc/, the map\'s data and the site\'s search', () => {
  const QUERIES = ['/map/matches.json?street=Osborn%20Street&bbox=-180,-90,180,90', '/ogc/collections/features/items?limit=2', '/map/labels.json?bbox=-0.08,51.51,-0.06,51.52', '/map/streets.json', '/search/?q=osborn'];
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ settings: { rateLimit: `${QUERIES.length}/minute`, rateLimitExempt: '' } });
  });
  after(() => t.close());

  test('each counts down the one counter; past it /map/matches.json gets the 429 /api/ gets, same body and headers', async () => {
    for (const [i, url] of QUERIES.entries()) {
      const answer = await request(t.origin, url);
      assert.equal(answer.status, 200, url);
      assert.equal(answer.headers['ratelimit-remaining'], String(QUERIES.length - 1 - i), url);
      assert.equal(answer.headers['ratelimit-policy'], `${QUERIES.length};w=60`, url);
    }
    const map = await request(t.origin, '/map/matches.json?street=Osborn%20Street&bbox=-180,-90,180,90');
    const api = await request(t.origin, FEATURES);
    assertThrottled(map);
    assertThrottled(api);
    // The same refusal but for the wait, which counts down between the two (whole seconds).
    const refusal = ({ headers, text }: Answer) => ({
      body: text.replace(/in \d+ seconds?\./, 'in N seconds.'),
      ...Object.fromEntries(['content-type', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-policy'].map((name) => [name, headers[name]])),
    });
    assert.deepEqual(refusal(map), refusal(api));
    for (const url of QUERIES.slice(1)) {
      const answer = await request(t.origin, url);
      if (url.startsWith('/search/')) {
        // A page of the site: to a browser the refusal is a page, to anyone else the API's JSON.
        assertThrottled(answer);
        const page = await request(t.origin, url, { headers: { accept: 'text/html' } });
        assert.deepEqual([page.status, page.headers['content-type']], [429, 'text/html; charset=utf-8']);
        assert.ok(page.text.includes('<h1>Too many requests</h1>'));
        continue;
      }
      // /ogc/ words its refusals as OGC exceptions; the map's data as the API does.
      if (url.startsWith('/ogc/')) assert.deepEqual([answer.status, answer.json().code], [429, 'TooManyRequests'], url);
      else assertThrottled(answer);
    }
  });
});

describe('the wait is in whole seconds, rounded up', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ settings: { rateLimit: '1/second', rateLimitExempt: '' } });
  });
  after(() => t.close());

  test('RATE_LIMIT=1/second: "Expected available in 1 second." with Retry-After: 1', async () => {
    // Two requests a second apart would both pass: go on until one lands in the same second.
    let answer = await request(t.origin, FEATURES);
    for (let i = 0; i < 20 && answer.status === 200; i++) answer = await request(t.origin, FEATURES);
    assert.equal(answer.status, 429);
    assert.equal(answer.headers['retry-after'], '1');
    assert.equal(answer.text, throttledBody(1));
    assert.equal(answer.text, '{"detail":"Request was throttled. Expected available in 1 second."}');
  });
});

describe('exempt addresses (RATE_LIMIT_EXEMPT)', () => {
  test('by default loopback is exempt: never limited, and no RateLimit-* headers', async () => {
    const t = await startTestServer({ settings: { rateLimit: '1/minute' } });
    try {
      for (let i = 0; i < 4; i++) {
        const answer = await request(t.origin, FEATURES);
        assert.equal(answer.status, 200);
        assertNoRateHeaders(answer);
      }
    } finally {
      await t.close();
    }
  });

  test('an IPv4 client of a dual-stack socket (::ffff:127.0.0.1) is matched against 127.0.0.0/8', async () => {
    const t = await startTestServer({ settings: { rateLimit: '1/minute', rateLimitExempt: '127.0.0.0/8', host: '::' } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await request(t.origin, FEATURES)).status, 200);
    } finally {
      await t.close();
    }
  });

  test('RATE_LIMIT=off: no limit and no headers, from any address', async () => {
    const t = await startTestServer({ settings: { rateLimit: 'off', rateLimitExempt: '' } });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await request(t.origin, FEATURES);
        assert.equal(answer.status, 200);
        assertNoRateHeaders(answer);
      }
    } finally {
      await t.close();
    }
  });
});

describe('X-Forwarded-For is the client only with TRUST_PROXY', () => {
  test('without TRUST_PROXY it is ignored: the socket address decides (exempt here)', async () => {
    const t = await startTestServer({ settings: { rateLimit: '1/minute', rateLimitExempt: '127.0.0.0/8' } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await request(t.origin, FEATURES, from('203.0.113.9'))).status, 200);
    } finally {
      await t.close();
    }
  });

  test('without TRUST_PROXY, changing X-Forwarded-For does not buy a new counter', async () => {
    const t = await startTestServer({ settings: { rateLimit: '1/minute', rateLimitExempt: '' } });
    try {
      assert.equal((await request(t.origin, FEATURES, from('203.0.113.1'))).status, 200);
      assertThrottled(await request(t.origin, FEATURES, from('203.0.113.2')));
    } finally {
      await t.close();
    }
  });

  test('with TRUST_PROXY the address the proxy appended is counted and checked against the exempt list', async () => {
    const t = await startTestServer({ settings: { rateLimit: '1/minute', rateLimitExempt: '127.0.0.0/8', trustProxy: '1' } });
    try {
      assert.equal((await request(t.origin, FEATURES, from('203.0.113.9'))).status, 200);
      assertThrottled(await request(t.origin, FEATURES, from('203.0.113.9')));
      // An exempt address written by the client in front of the proxy's entry changes nothing.
      assertThrottled(await request(t.origin, FEATURES, from('127.0.0.1, 203.0.113.9')));
      assert.equal((await request(t.origin, FEATURES, from('203.0.113.10'))).status, 200);
      assert.equal((await request(t.origin, FEATURES, from('::ffff:198.51.100.7'))).status, 200);
      assertThrottled(await request(t.origin, FEATURES, from('198.51.100.7')));
      // A forwarded exempt client, and the proxy itself, are never limited.
      for (let i = 0; i < 3; i++) {
        assert.equal((await request(t.origin, FEATURES, from('203.0.113.9, 127.0.0.5'))).status, 200);
        assert.equal((await request(t.origin, FEATURES)).status, 200);
      }
    } finally {
      await t.close();
    }
  });
});

describe('rate-limit settings', () => {
  // Accepted: the Config fields the setting gives, exactly; refused: the sentence, never echoing a password.
  const cases: [Record<string, string>, Partial<Config> | RegExp][] = [
    [{ RATE_LIMIT: '60/minute' }, { rateLimit: { max: 60, windowMs: 60_000 } }],
    [{ RATE_LIMIT: 'off' }, { rateLimit: null }],
    [{ RATE_LIMIT: '5/fortnight' }, /RATE_LIMIT must be/],
    [{ RATE_LIMIT: '0/day' }, /RATE_LIMIT must be/],
    [{ RATE_LIMIT: 'lots' }, /RATE_LIMIT must be/],
    [{ RATE_LIMIT_EXEMPT: '10.0.0.0/8, ::1, 2001:db8::/32' }, { rateLimitExempt: ['10.0.0.0/8', '::1', '2001:db8::/32'] }],
    [{ RATE_LIMIT_EXEMPT: '10.0.0.0/33' }, /RATE_LIMIT_EXEMPT .* "10\.0\.0\.0\/33"/],
    [{ RATE_LIMIT_EXEMPT: 'localhost' }, /RATE_LIMIT_EXEMPT/],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, /REDIS_URL must be/],
    [{ REDIS_URL: 'redis://:secret@127.0.0.1:6379' }, { redisUrl: 'redis://:secret@127.0.0.1:6379' }],
    [{ METRICS: 'maybe' }, /METRICS must be/],
    [{ LOG_FORMAT: 'xml' }, /log format must be/],
  ];
  for (const [env, expected] of cases) {
    test(`${JSON.stringify(env)} → ${expected instanceof RegExp ? expected : JSON.stringify(expected)}`, () => {
      if (!(expected instanceof RegExp)) {
        const given = Object.entries(loadConfig({}, env)).filter(([key]) => key in expected);
        assert.deepEqual(Object.fromEntries(given), expected);
      } else assert.throws(() => loadConfig({}, env), (e: unknown) => e instanceof ConfigError && expected.test(e.message) && !e.message.includes('secret'));
    });
  }

  test('defaults: 1000/day, loopback exempt, metrics on, JSON logs', () => {
    const config = loadConfig({}, {});
    assert.deepEqual(config.rateLimit, { max: 1000, windowMs: 86_400_000 });
    assert.deepEqual(config.rateLimitExempt, ['127.0.0.0/8', '::1']);
    assert.equal(config.redisUrl, null);
    assert.equal(config.metrics, true);
    assert.equal(config.logFormat, 'json');
  });

  test('serve --workers N warns that the limit is per worker, unless Redis shares it or it is off', () => {
    assert.match(perWorkerLimitWarning(loadConfig({}, {}), 4) ?? '', /each of the 4 workers counts requests on its own/);
    assert.equal(perWorkerLimitWarning(loadConfig({}, {}), 1), null);
    assert.equal(perWorkerLimitWarning(loadConfig({}, { REDIS_URL: 'redis://127.0.0.1' }), 4), null);
    assert.equal(perWorkerLimitWarning(loadConfig({}, { RATE_LIMIT: 'off' }), 4), null);
  });
});

describe('Redis unreachable: the API keeps answering', () => {
  test('a closed port: every answer is a 200, uncounted, never a 500', async () => {
    const port = await closedPort();
    const t = await startTestServer({ settings: { rateLimit: '2/minute', rateLimitExempt: '', redisUrl: `redis://127.0.0.1:${port}` } });
    try {
      for (let i = 0; i < 5; i++) {
        const answer = await request(t.origin, FEATURES);
        assert.equal(answer.status, 200);
        assertNoRateHeaders(answer);
      }
    } finally {
      await t.close();
    }
  });
});

await withRedis('rate limits in Redis', () => {
  describe('REDIS_URL: counters shared by every process', () => {
    const prefix = uniqueRedisPrefix();
    const settings = { rateLimit: '3/minute', rateLimitExempt: '', redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix };
    let a: TestServer;
    let b: TestServer;
    before(async () => {
      a = await startTestServer({ settings });
      b = await startTestServer({ settings });
    });
    after(async () => {
      await a.close();
      await b.close();
      await takeRedisKeys(prefix);
    });

    test('two servers count one client together: A, B, A pass, the fourth (on B) is refused', async () => {
      const remaining = [];
      for (const t of [a, b, a]) {
        const answer = await request(t.origin, FEATURES);
        assert.equal(answer.status, 200);
        remaining.push(answer.headers['ratelimit-remaining']);
      }
      assert.deepEqual(remaining, ['2', '1', '0']);
      assertThrottled(await request(b.origin, FEATURES));
      assertThrottled(await request(a.origin, FEATURES));
    });

    test('the counter lives under REDIS_KEY_PREFIX, keyed by the client address', async () => {
      const keys = await takeRedisKeys(prefix);
      assert.deepEqual(keys, [`${prefix}rate-limit:127.0.0.1`]);
      // Deleted: the window starts again.
      assert.equal((await request(a.origin, FEATURES)).status, 200);
    });
  });

  describe('Redis stops answering mid-way (a stalled connection)', () => {
    const prefix = uniqueRedisPrefix();
    let proxy: Awaited<ReturnType<typeof startStallingProxy>>;
    let t: TestServer;
    before(async () => {
      proxy = await startStallingProxy(new URL(TEST_REDIS_URL));
      t = await startTestServer({
        settings: { rateLimit: '2/minute', rateLimitExempt: '', redisUrl: `redis://127.0.0.1:${proxy.port}`, redisKeyPrefix: prefix },
      });
    });
    after(async () => {
      await t.close();
      await proxy.close();
      await takeRedisKeys(prefix);
    });

    test('counted while Redis answers; once it stalls, answers go on uncounted (fail open), never a 500', async () => {
      const first = await request(t.origin, FEATURES);
      assert.equal(first.status, 200);
      assert.equal(first.headers['ratelimit-remaining'], '1');
      proxy.stall();
      for (let i = 0; i < 4; i++) {
        const answer = await request(t.origin, FEATURES);
        assert.equal(answer.status, 200);
        assertNoRateHeaders(answer);
      }
    });
  });
});

// Media files exist only with a media root: one file, to show that /media/ is not limited.
describe('media files are not limited', () => {
  let t: TestServer;
  before(async () => {
    const root = temporaryDir();
    fs.mkdirSync(path.join(root, 'categories'));
    fs.writeFileSync(path.join(root, 'categories', 'x.png'), 'not really a picture');
    t = await startTestServer({ settings: { rateLimit: '1/minute', rateLimitExempt: '', mediaRoot: root } });
  });
  after(() => t.close());

  test('after the API is refused, /media/ still answers 200', async () => {
    assert.equal((await request(t.origin, FEATURES)).status, 200);
    assertThrottled(await request(t.origin, FEATURES));
    for (let i = 0; i < 3; i++) {
      const answer = await request(t.origin, '/media/categories/x.png');
      assert.equal(answer.status, 200);
      assert.equal(answer.text, 'not really a picture');
      assertNoRateHeaders(answer);
    }
  });
});
