import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig, type RawSettings } from '../../src/config.js';
import { hundredths, loggerOptions } from '../../src/http/operations/request-log.js';
import { openStore } from '../../src/store/open.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { captureLogLines } from '../support/log-capture.js';
import { exitCode, startCliServer } from '../support/cli.js';
import { request } from '../support/http.js';
import { closedPort } from '../support/redis.js';
import { importInto } from '../support/server.js';
import { createTestDatabase } from '../support/stores.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface LoggedServer {
  origin: string;
  /** Every line written so far, parsed. */
  lines: Record<string, any>[];
  /** Waits (woken by each write, bounded) until `count` request lines were written, and returns them. */
  requestLines(count: number): Promise<Record<string, any>[]>;
  close(): Promise<void>;
}

/** The real app with its real logger options, writing into memory instead of standard output. */
async function startLoggedServer(settings: RawSettings = {}): Promise<LoggedServer> {
  const database = createTestDatabase();
  await importInto(database.settings, buildTestCatalogue());
  const config = loadConfig({ ...database.settings, logLevel: 'info', ...settings }, {});
  const { stream, lines, waitFor } = captureLogLines<Record<string, any>>();
  const store = await openStore(config, { serving: true });
  const app = await buildApp({ store, config, logger: loggerOptions(config, stream) });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const requestLinesOf = (all: Record<string, any>[]) => all.filter((l) => l.msg === 'request');
  const requestLines = async (count: number) => requestLinesOf(await waitFor((all) => requestLinesOf(all).length >= count));
  return {
    origin: address,
    lines,
    requestLines,
    close: async () => {
      await app.close();
      await store.close();
      await database.drop();
    },
  };
}

describe('one JSON line per request', () => {
  let t: LoggedServer;
  before(async () => {
    t = await startLoggedServer({ rateLimit: '3/minute', rateLimitExempt: '' });
  });
  after(() => t.close());

  test('method, url, status, duration, bytes, client and the request id echoed in X-Request-Id', async () => {
    const answers = [
      await request(t.origin, '/api/v1/features/?page=2'),
      await request(t.origin, '/api/v1/nothing/'),
      await request(t.origin, '/api/v1/features/', { method: 'HEAD' }),
      await request(t.origin, '/api/v1/'),
      await request(t.origin, '/healthz'),
    ];
    assert.deepEqual(answers.map((a) => a.status), [200, 404, 200, 429, 200]);
    const lines = await t.requestLines(5);
    assert.equal(lines.length, 5);
    const expected = [
      ['GET', '/api/v1/features/?page=2', 200],
      ['GET', '/api/v1/nothing/', 404],
      ['HEAD', '/api/v1/features/', 200],
      ['GET', '/api/v1/', 429],
      ['GET', '/healthz', 200],
    ];
    lines.forEach((line, i) => {
      const answer = answers[i]!;
      const [method, url, status] = expected[i]!;
      assert.equal(line.level, 30);
      assert.equal(line.method, method);
      assert.equal(line.url, url);
      assert.equal(line.status, status);
      assert.equal(typeof line.duration_ms, 'number');
      assert.ok(line.duration_ms >= 0 && line.duration_ms < 10_000, String(line.duration_ms));
      assert.equal(line.bytes, method === 'HEAD' ? 0 : answer.bytes.length);
      assert.equal(line.client, '127.0.0.1');
      assert.match(answer.headers['x-request-id'] as string, UUID);
      assert.equal(line.request_id, answer.headers['x-request-id']);
    });
    assert.ok(lines[0]!.bytes > 1000);
    assert.equal(new Set(lines.map((l) => l.request_id)).size, 5);
  });

  test('a sane X-Request-Id from the client is kept, echoed and logged', async () => {
    const id = 'lb-7f3a.c0ffee:42';
    const answer = await request(t.origin, '/healthz', { headers: { 'x-request-id': id } });
    assert.equal(answer.headers['x-request-id'], id);
    const lines = await t.requestLines(6);
    assert.equal(lines.at(-1)!.request_id, id);
  });

  for (const [name, id] of [['too long', 'x'.repeat(129)], ['with spaces', 'a b'], ['with quotes', 'a"b'], ['empty', '']] as const) {
    test(`an X-Request-Id ${name} is replaced by a new one`, async () => {
      const answer = await request(t.origin, '/healthz', { headers: { 'x-request-id': id } });
      assert.match(answer.headers['x-request-id'] as string, UUID);
    });
  }

  test('a password reset link\'s token is never written (it is the link\'s secret for an hour)', async () => {
    const before = (await t.requestLines(0)).length;
    const token = 'k9Qe3vX2mA7pL0sT5yW8nB1cD4fG6hJ9kM2oR5uV8xZ';
    await request(t.origin, `/account/reset/${token}?from=mail`);
    const lines = await t.requestLines(before + 1);
    assert.equal(lines.at(-1)!.url, '/account/reset/…?from=mail');
    assert.ok(!JSON.stringify(t.lines).includes(token));
  });

  test('a refused Host header still gets a request id and a line', async () => {
    const before = (await t.requestLines(0)).length;
    const answer = await request(t.origin, '/api/v1/', { headers: { host: 'evil.example' } });
    assert.equal(answer.status, 400);
    assert.match(answer.headers['x-request-id'] as string, UUID);
    const lines = await t.requestLines(before + 1);
    assert.equal(lines.at(-1)!.status, 400);
    assert.equal(lines.at(-1)!.request_id, answer.headers['x-request-id']);
  });
});

describe('a cached answer\'s line (written from a template, not by pino)', () => {
  let t: LoggedServer;
  before(async () => {
    t = await startLoggedServer();
  });
  after(() => t.close());

  test('is pino\'s line: the same fields in the same order, time the clock\'s milliseconds, the duration in hundredths', async () => {
    const url = '/api/v1/features/?page=2';
    const startedAt = Date.now();
    for (let i = 0; i < 4; i++) assert.equal((await request(t.origin, url)).status, 200);
    const finishedAt = Date.now();
    const lines = await t.requestLines(4);
    assert.equal(lines.length, 4);
    const [first, ...cached] = lines;
    for (const line of cached) {
      assert.deepEqual(Object.keys(line), Object.keys(first!));
      assert.ok(Number.isInteger(line.time) && line.time >= startedAt && line.time <= finishedAt, String(line.time));
      assert.equal(line.duration_ms, Math.round(line.duration_ms * 100) / 100);
    }
  });
});

describe('hundredths', () => {
  test('writes what String(Math.round(ms * 100) / 100) writes', () => {
    const values = [0, 0.001, 0.004, 0.005, 0.01, 0.05, 0.1, 0.125, 0.995, 1, 1.005, 9.999, 10.1, 99.99, 12345.678, 1e7, 1e9, 1e12, -0.004, -1.5, NaN, Infinity];
    for (let i = 0; i < 20_000; i++) values.push(Math.random() * 10 ** (i % 8));
    for (const ms of values) assert.equal(hundredths(ms), String(Math.round(ms * 100) / 100), String(ms));
  });
});

describe('LOG_LEVEL', () => {
  // Closing the app is the barrier, not a wait: a request's line is written as its answer
  // finishes, and close() returns once every connection has ended. The info row shows the
  // barrier is enough for the lines to be there.
  for (const [level, lines] of [['info', 2], ['warn', 0]] as const) {
    test(`${level}: ${lines} request lines, and X-Request-Id is echoed either way`, async () => {
      const t = await startLoggedServer({ logLevel: level });
      try {
        const answer = await request(t.origin, '/api/v1/features/');
        assert.equal(answer.status, 200);
        assert.match(answer.headers['x-request-id'] as string, UUID);
        assert.equal((await request(t.origin, '/api/v1/')).status, 200);
      } finally {
        await t.close();
      }
      assert.equal(t.lines.filter((l) => l.msg === 'request').length, lines);
    });
  }
});

describe('Redis unreachable', () => {
  test('one warning, not one per request', async () => {
    const port = await closedPort();
    const t = await startLoggedServer({ rateLimit: '2/minute', rateLimitExempt: '', redisUrl: `redis://127.0.0.1:${port}` });
    try {
      for (let i = 0; i < 6; i++) assert.equal((await request(t.origin, '/api/v1/features/')).status, 200);
      await t.requestLines(6);
      const warnings = t.lines.filter((l) => l.level === 40);
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.match(warnings[0]!.msg, /Redis/);
      assert.match(warnings[0]!.msg, /at most once a minute/);
    } finally {
      await t.close();
    }
  });
});

describe('serve: the log on standard output', () => {
  for (const format of ['json', 'pretty']) {
    test(`--log-format ${format}`, async () => {
      const database = createTestDatabase();
      await importInto(database.settings, buildTestCatalogue());
      const server = await startCliServer([...database.args, '--log-level', 'info', '--log-format', format]);
      let stdout = '';
      server.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      try {
        const answer = await request(server.origin, '/api/v1/features/', { headers: { 'x-request-id': 'cli-test-1' } });
        assert.equal(answer.status, 200);
        await outputIncludes(server.child.stdout!, () => stdout, 'cli-test-1');
        const line = stdout.split('\n').find((l) => l.includes('cli-test-1'));
        assert.ok(line, stdout);
        if (format === 'json') {
          const parsed = JSON.parse(line);
          assert.equal(parsed.url, '/api/v1/features/');
          assert.equal(parsed.status, 200);
          assert.equal(parsed.bytes, answer.bytes.length);
        } else {
          // pino-pretty: a headline, then one indented line per field.
          assert.match(stdout, /INFO.*: request\n/);
          assert.match(line, /^ +request_id: "cli-test-1"$/);
          assert.match(stdout, /^ +url: "\/api\/v1\/features\/"$/m);
          assert.ok(!stdout.split('\n').some((l) => l.startsWith('{')), stdout);
        }
      } finally {
        server.child.kill('SIGTERM');
        await exitCode(server.child);
        await database.drop();
      }
    });
  }
});

/** Resolves once the text read so far includes `text` (checked as each chunk comes; bounded). */
function outputIncludes(output: Readable, read: () => string, text: string, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!read().includes(text)) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${JSON.stringify(text)} not written within ${timeoutMs} ms: ${read().slice(-500)}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      output.off('data', check);
    };
    // After the test's own 'data' listener, which appends the chunk to what read() returns.
    output.on('data', check);
    check();
  });
}
