import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rawAnswer, request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { testStoreKind } from '../support/stores.js';

/** The value of one sample (`name{labels}` exactly as written), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(t: TestServer): Promise<string> {
  const answer = await request(t.origin, '/metrics');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return answer.text;
}

const FEATURES_200 = 'heritage_http_requests_total{method="GET",route="/api/v1/features/",status="200"}';

describe('GET /metrics (Prometheus text format)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ settings: { rateLimit: '2/minute', trustProxy: '1' } });
  });
  after(() => t.close());

  test('requests are counted by route pattern and status, never by raw URL', async () => {
    const before = await scrape(t);
    const answers = [];
    for (const url of ['/api/v1/features/', '/api/v1/features/?page=2', '/api/v1/features/?page=3&page_size=10']) {
      answers.push(await request(t.origin, url));
    }
    const ids: number[] = answers[1]!.json().results.features.slice(0, 2).map((f: { id: number }) => f.id);
    for (const id of ids) assert.equal((await request(t.origin, `/api/v1/features/${id}/`)).status, 200);
    await request(t.origin, '/api/v1/no-such-collection/');
    const now = await scrape(t);
    assert.equal(sample(now, FEATURES_200)! - (sample(before, FEATURES_200) ?? 0), 3);
    const detail = 'heritage_http_requests_total{method="GET",route="/api/v1/features/:id/",status="200"}';
    assert.equal(sample(now, detail)! - (sample(before, detail) ?? 0), 2);
    const unmatched = 'heritage_http_requests_total{method="GET",route="(no route)",status="404"}';
    assert.equal(sample(now, unmatched)! - (sample(before, unmatched) ?? 0), 1);
    for (const raw of ['page=2', `/features/${ids[0]}/`, 'no-such-collection']) assert.ok(!now.includes(raw), raw);
    const bytes = 'heritage_http_response_bytes_total{route="/api/v1/features/"}';
    assert.equal(sample(now, bytes)! - (sample(before, bytes) ?? 0), answers.reduce((sum, a) => sum + a.bytes.length, 0));
  });

  test('another spelling of an API path is counted under the route it was answered by', async () => {
    const before = await scrape(t);
    const answers = await Promise.all(['/%61pi/v1/features/', `http://127.0.0.1:${t.port}/api/v1/%66eatures/`].map((target) =>
      rawAnswer(t.origin, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)));
    for (const answer of answers) assert.equal(answer.status, 200);
    const now = await scrape(t);
    assert.equal(sample(now, FEATURES_200)! - (sample(before, FEATURES_200) ?? 0), 2);
    assert.ok(!now.includes('%61') && !now.includes('%66'));
  });

  test('a latency histogram per route', async () => {
    await request(t.origin, '/api/v1/images/');
    const text = await scrape(t);
    assert.match(text, /^# TYPE heritage_http_request_duration_seconds histogram$/m);
    const count = sample(text, 'heritage_http_request_duration_seconds_count{route="/api/v1/images/"}')!;
    assert.ok(count >= 1);
    assert.equal(sample(text, 'heritage_http_request_duration_seconds_bucket{le="+Inf",route="/api/v1/images/"}'), count);
    assert.ok(sample(text, 'heritage_http_request_duration_seconds_sum{route="/api/v1/images/"}')! > 0);
  });

  test('answer cache: a repeated URL is a hit', async () => {
    const url = '/api/v1/documents/?page_size=7';
    const before = await scrape(t);
    await request(t.origin, url);
    const middle = await scrape(t);
    await request(t.origin, url);
    const now = await scrape(t);
    const hits = (text: string) => sample(text, 'heritage_answer_cache_hits_total')!;
    const misses = (text: string) => sample(text, 'heritage_answer_cache_misses_total')!;
    assert.equal(misses(middle) - misses(before), 1);
    assert.equal(hits(middle) - hits(before), 0);
    assert.equal(hits(now) - hits(middle), 1);
    assert.equal(misses(now) - misses(middle), 0);
    assert.ok(sample(now, 'heritage_answer_cache_entries')! >= 1);
    assert.ok(sample(now, 'heritage_answer_cache_bytes')! > 0);
  });

  test('the catalogue version being served and when this process first saw it', async () => {
    const ready = (await request(t.origin, '/readyz')).json();
    const text = await scrape(t);
    assert.equal(sample(text, 'heritage_catalogue_version'), ready.catalogue_version);
    const seen = sample(text, 'heritage_catalogue_seen_timestamp_seconds')!;
    assert.ok(seen > Date.now() / 1000 - 600 && seen <= Date.now() / 1000, String(seen));
  });

  test('rate-limit rejections (a throttled client behind the trusted proxy)', async () => {
    const before = sample(await scrape(t), 'heritage_rate_limit_rejections_total')!;
    const from = { headers: { 'x-forwarded-for': '203.0.113.9' } };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await request(t.origin, '/api/v1/media/', from)).status);
    assert.deepEqual(statuses, [200, 200, 429, 429, 429]);
    assert.equal(sample(await scrape(t), 'heritage_rate_limit_rejections_total')! - before, 3);
  });

  test('store pool usage: PostgreSQL only', async () => {
    const text = await scrape(t);
    if (testStoreKind() === 'postgres') {
      const total = sample(text, 'heritage_store_pool_connections{state="total"}')!;
      const idle = sample(text, 'heritage_store_pool_connections{state="idle"}')!;
      assert.ok(total >= 1 && total <= 10, String(total));
      assert.ok(idle >= 0 && idle <= total);
      assert.equal(sample(text, 'heritage_store_pool_connections{state="waiting"}'), 0);
    } else {
      assert.ok(!text.includes('heritage_store_pool_connections'));
    }
  });

  test('process metrics (prom-client defaults)', async () => {
    const text = await scrape(t);
    assert.ok(sample(text, 'process_resident_memory_bytes')! > 0);
  });

  test('scrapers may address the process by IP: no Host check', async () => {
    const answer = await request(t.origin, '/metrics', { headers: { host: '10.1.2.3:9100' } });
    assert.equal(answer.status, 200);
    assert.equal((await request(t.origin, '/api/v1/', { headers: { host: '10.1.2.3:9100' } })).status, 400);
  });

  test('only the exempt addresses: a forwarded client gets a JSON 403', async () => {
    const answer = await request(t.origin, '/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(answer.status, 403);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(answer.text, '{"detail":"You do not have permission to perform this action."}');
  });

  test('it is not under /api/: no API headers, never rate limited', async () => {
    const answer = await request(t.origin, '/metrics');
    assert.equal(answer.headers.allow, undefined);
    assert.equal(answer.headers['ratelimit-limit'], undefined);
  });
});

describe('/metrics settings', () => {
  test('METRICS=off: 404 Not found.', async () => {
    const t = await startTestServer({ settings: { metrics: 'off' } });
    try {
      const answer = await request(t.origin, '/metrics');
      assert.equal(answer.status, 404);
      assert.equal(answer.text, '{"detail":"Not found."}');
    } finally {
      await t.close();
    }
  });

  test('RATE_LIMIT_EXEMPT empty: nobody may read it', async () => {
    const t = await startTestServer({ settings: { rateLimitExempt: '' } });
    try {
      assert.equal((await request(t.origin, '/metrics')).status, 403);
    } finally {
      await t.close();
    }
  });

  test('without TRUST_PROXY, X-Forwarded-For does not lock out (or let in) anyone', async () => {
    const t = await startTestServer();
    try {
      assert.equal((await request(t.origin, '/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status, 200);
    } finally {
      await t.close();
    }
    const closed = await startTestServer({ settings: { rateLimitExempt: '10.0.0.0/8' } });
    try {
      assert.equal((await request(closed.origin, '/metrics', { headers: { 'x-forwarded-for': '10.0.0.1' } })).status, 403);
    } finally {
      await closed.close();
    }
  });
});
