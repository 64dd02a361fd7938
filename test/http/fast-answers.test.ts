// The fast path for cached answers (src/http/cache/fast-answers.ts) must be invisible: the same
// requests to a server with it and to one without it (buildApp's fastAnswers: false) get the
// same status, headers and bytes, the same log lines and the same metrics; and requests it
// must leave to Fastify (CORS, a counted client, a bad Host) are still answered by Fastify.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type RawSettings } from '../../src/config.js';
import { loggerOptions } from '../../src/http/operations/request-log.js';
import { openStore } from '../../src/store/open.js';
import type { CatalogueStore } from '../../src/store/store.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { captureLogLines } from '../support/log-capture.js';
import { rawRequest, request, type RequestOptions } from '../support/http.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

interface Served {
  origin: string;
  /** Requests that reached Fastify's hooks. */
  reachedFastify(): number;
  /** The request log lines written so far (waits, woken by each write, until `count` are there). */
  requestLines(count: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function serve(database: TestDatabase, settings: RawSettings, fastAnswers: boolean): Promise<Served> {
  const config = loadConfig({ ...database.settings, logLevel: 'info', ...settings }, {});
  const { stream, waitFor } = captureLogLines<Record<string, unknown>>();
  const store = (await openStore(config, { serving: true })) as CatalogueStore;
  const app: FastifyInstance = await buildApp({ store, config, logger: loggerOptions(config, stream), fastAnswers });
  let reached = 0;
  app.addHook('onRequest', async () => {
    reached++;
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin,
    reachedFastify: () => reached,
    requestLines: async (count) => {
      const requestLines = (all: Record<string, unknown>[]) => all.filter((l) => l.msg === 'request');
      return requestLines(await waitFor((all) => requestLines(all).length >= count));
    },
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

/** What must be equal: everything but the Date and a generated request id. */
function comparable(answer: Awaited<ReturnType<typeof request>>, givenId?: string) {
  const { date, 'x-request-id': id, ...headers } = answer.headers;
  return { status: answer.status, headers, body: createHash('sha256').update(answer.bytes).digest('hex'), id: givenId === undefined ? typeof id : id };
}

/** A log line without what differs between two requests: the time, duration and a generated id. */
function comparableLine(line: Record<string, unknown>, givenId?: string) {
  const { time, duration_ms: duration, request_id: id, pid, ...rest } = line;
  assert.equal(typeof time, 'number');
  assert.equal(typeof duration, 'number');
  return { keys: Object.keys(line), rest, id: givenId ?? typeof id };
}

async function versionKnown(server: Served): Promise<void> {
  for (let i = 0; i < 300; i++) {
    // Not 0: prom-client shows a gauge without labels as 0 before any value (the version unknown).
    if (/^heritage_catalogue_version [1-9]/m.test((await request(server.origin, '/metrics')).text)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the catalogue version was never read');
}

const METRIC_LINES = /^heritage_(http_requests_total|http_response_bytes_total|http_request_duration_seconds_count|answer_cache_(hits|misses)_total)/;

// Oracle: Fastify's own answers, log lines and metrics (fastAnswers off), for the same requests.
describe('the fast path for cached answers', () => {
  for (const [name, settings] of [['default settings', {}], ['COMPRESS=1', { compress: '1' }]] as [string, RawSettings][]) {
    describe(name, () => {
      const database = createTestDatabase();
      let fast: Served;
      let plain: Served;
      before(async () => {
        await importInto(database.settings, buildTestCatalogue());
        fast = await serve(database, settings, true);
        plain = await serve(database, settings, false);
        // A server that has not yet read the catalogue version neither caches nor counts a miss.
        for (const server of [fast, plain]) await versionKnown(server);
      });
      after(async () => {
        await fast.close();
        await plain.close();
        await database.drop();
      });

      test('answers as Fastify does, byte for byte, without reaching Fastify once cached; same log lines and metrics', async () => {
        // Asked of both, so that their metrics stay comparable.
        const firstId = (await request(plain.origin, '/api/v1/features/')).json().results.features[0].id;
        await request(fast.origin, '/api/v1/features/');
        const etag = String((await request(plain.origin, '/api/v1/features/', { headers: { host: '127.0.0.1:8000' } })).headers.etag);
        await request(fast.origin, '/api/v1/features/', { headers: { host: '127.0.0.1:8000' } });
        const shapes: [string, RequestOptions][] = [
          ['/api/v1/features/', {}],
          ['/api/v1/features/?page_size=2&page=2', {}],
          [`/api/v1/features/${firstId}/`, {}],
          ['/api/v1/images/', { method: 'HEAD' }],
          ['/api/v1/features/', { headers: { 'if-none-match': etag } }],
          ['/api/v1/documents/', { headers: { 'x-request-id': 'client-chosen.id-1' } }],
          ['/api/v1/media/', { headers: { 'accept-encoding': 'gzip' } }],
          ['/api/v1/features/', { headers: { 'accept-encoding': 'br, gzip' } }],
        ];
        // Both servers are asked under one Host, so that their links (and bytes) can agree.
        for (const [, options] of shapes) options.headers = { host: '127.0.0.1:8000', ...options.headers };
        let linesSeen = (await fast.requestLines(2)).length;
        const plainLinesBefore = (await plain.requestLines(2)).length - linesSeen;
        for (const [url, options] of shapes) {
          for (let i = 0; i < 3; i++) {
            const before = fast.reachedFastify();
            const ours = await request(fast.origin, url, options);
            const theirs = await request(plain.origin, url, options);
            const given = options.headers?.['x-request-id'];
            assert.deepEqual(comparable(ours, given), comparable(theirs, given), `${url} ${JSON.stringify(options)}`);
            // The first two teach the fast path (render, then the first send of that kind) at most.
            if (i === 2) assert.equal(fast.reachedFastify(), before, `${url} ${JSON.stringify(options)} reached Fastify`);
            linesSeen++;
            const ourLine = (await fast.requestLines(linesSeen)).at(-1)!;
            const theirLine = (await plain.requestLines(plainLinesBefore + linesSeen)).at(-1)!;
            assert.deepEqual(comparableLine(ourLine, given), comparableLine(theirLine, given));
            assert.equal(ourLine.request_id, ours.headers['x-request-id']);
          }
        }
        const metrics = async (server: Served) => (await request(server.origin, '/metrics')).text.split('\n').filter((l) => METRIC_LINES.test(l) && !l.includes('route="/metrics"')).sort();
        const ours = await metrics(fast);
        assert.ok(ours.some((l) => l.startsWith('heritage_http_requests_total{method="GET",route="/api/v1/features/",status="304"} 3')), ours.join('\n'));
        assert.deepEqual(ours, await metrics(plain));
      });

      test('a request with an Origin gets its CORS headers from Fastify', async () => {
        await request(fast.origin, '/api/v1/features/');
        await request(fast.origin, '/api/v1/features/');
        const before = fast.reachedFastify();
        const answer = await request(fast.origin, '/api/v1/features/', { headers: { origin: 'https://elsewhere.example' } });
        assert.equal(answer.headers['access-control-allow-origin'], '*');
        assert.equal(fast.reachedFastify(), before + 1);
      });

      test('a request with two Host headers is refused (400) even when the first names a cached answer', async () => {
        const twoHosts = 'GET /api/v1/features/ HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nHost: evil.example\r\nConnection: close\r\n\r\n';
        for (const server of [fast, plain]) await request(server.origin, '/api/v1/features/', { headers: { host: '127.0.0.1:8000' } });
        await request(fast.origin, '/api/v1/features/', { headers: { host: '127.0.0.1:8000' } });
        const statusLine = (text: string) => text.slice(0, text.indexOf('\r\n'));
        const ours = statusLine(await rawRequest(fast.origin, twoHosts));
        assert.equal(ours, 'HTTP/1.1 400 Bad Request');
        assert.equal(ours, statusLine(await rawRequest(plain.origin, twoHosts)));
      });

      test('a target the canonical form would rewrite is left to Fastify, even when it is another answer\'s key', async () => {
        // `%%332` becomes `%32` (the cache key of that request); `%32` itself becomes `2`.
        for (let i = 0; i < 3; i++) await request(fast.origin, '/api/v1/features/?page_size=2&page=%%332');
        const before = fast.reachedFastify();
        const answer = await request(fast.origin, '/api/v1/features/?page_size=2&page=%32');
        assert.equal(answer.status, 200);
        assert.equal(fast.reachedFastify(), before + 1);
        const lines = await fast.requestLines(0);
        assert.equal(lines.at(-1)!.url, '/api/v1/features/?page_size=2&page=2');
      });

      test('a Host outside ALLOWED_HOSTS is refused even for a cached answer', async () => {
        await request(fast.origin, '/api/v1/features/');
        const answer = await request(fast.origin, '/api/v1/features/', { headers: { host: 'evil.example' } });
        assert.equal(answer.status, 400);
      });
    });
  }

  describe('a client the rate limit counts', () => {
    const database = createTestDatabase();
    let fast: Served;
    before(async () => {
      await importInto(database.settings, buildTestCatalogue());
      fast = await serve(database, { rateLimit: '3/minute', rateLimitExempt: '' }, true);
    });
    after(async () => {
      await fast.close();
      await database.drop();
    });

    test('is counted on every request, cached or not, and refused past the limit', async () => {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await request(fast.origin, '/api/v1/features/')).status);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    });
  });
});
