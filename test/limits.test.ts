// Timeouts and size limits: slow or idle connections by the hundred do not stop others
// being served and are cut after HEADERS_TIMEOUT_MS with a JSON 408; a URL over
// MAX_URL_BYTES gets a JSON 414, a request line over node's header limit too, and headers
// over it a JSON 431.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { rawRequest, request } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

const TRICKLERS = 150;
const IDLE = 150;

let t: TestServer;
let small: TestServer;
before(async () => {
  t = await startTestServer({ settings: { headersTimeoutMs: '1000', requestTimeoutMs: '1000' } });
  small = await startTestServer({ settings: { maxUrlBytes: '1024' } });
});
after(async () => {
  await t.close();
  await small.close();
});

interface Held {
  socket: net.Socket;
  /** Everything the server wrote, once it closed the connection. */
  closed: Promise<string>;
}

/** A connection that sends `text` one byte every 100 ms (never finishing), or nothing. */
function hold(origin: string, text: string): Promise<Held> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<string>((done) => {
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('close', () => {
        clearInterval(timer);
        done(Buffer.concat(chunks).toString('utf8'));
      });
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      let sent = 0;
      if (text !== '') timer = setInterval(() => sent < text.length && socket.write(text[sent++]!), 100);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

describe('slow and idle connections', { timeout: 60_000 }, () => {
  test(`${TRICKLERS} trickling and ${IDLE} idle connections: others are served, and they are cut with a JSON 408`, async () => {
    const held = await Promise.all([
      ...Array.from({ length: TRICKLERS }, () => hold(t.origin, 'GET /api/v1/features/?page=1&page_size=20&format=json HTTP/1.1\r\n')),
      ...Array.from({ length: IDLE }, () => hold(t.origin, '')),
    ]);
    const served = await request(t.origin, '/api/v1/features/?page=2');
    assert.equal(served.status, 200);
    assert.equal(served.json().results.features.length, 20);
    const answers = await Promise.all(held.map((h) => h.closed));
    for (const answer of answers) {
      assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.ok(answer.endsWith('\r\n\r\n{"detail":"Request timed out."}'), answer);
    }
    assert.equal((await request(t.origin, '/api/v1/')).status, 200);
  });
});

describe('URL and header size', () => {
  const longUrl = (length: number) => {
    // An unknown parameter is ignored (q has its own, shorter limit).
    const prefix = '/api/v1/features/?pad=';
    return prefix + 'x'.repeat(length - prefix.length);
  };

  test('a URL of MAX_URL_BYTES (8 KiB by default) is served; one byte more is a JSON 414', async () => {
    const atLimit = await request(t.origin, longUrl(8192));
    assert.equal(atLimit.status, 200);
    const over = await request(t.origin, longUrl(8193));
    assert.equal(over.status, 414);
    assert.equal(over.headers['content-type'], 'application/json');
    assert.deepEqual(over.json(), { detail: 'Request URL too long.' });
  });

  test('MAX_URL_BYTES is configurable', async () => {
    assert.equal((await request(small.origin, longUrl(1024))).status, 200);
    const over = await request(small.origin, longUrl(1025));
    assert.equal(over.status, 414);
    assert.deepEqual(over.json(), { detail: 'Request URL too long.' });
  });

  test('a request line beyond node\'s 16 KiB header limit is a JSON 414 as well', async () => {
    const answer = await rawRequest(t.origin, `GET ${longUrl(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 414 URI Too Long\r\n/);
    assert.ok(answer.endsWith('{"detail":"Request URL too long."}'));
  });

  test('headers beyond 16 KiB with a short URL are a JSON 431', async () => {
    const answer = await rawRequest(t.origin, `GET /api/v1/ HTTP/1.1\r\nHost: localhost\r\n${`X-Pad: ${'y'.repeat(50)}\r\n`.repeat(400)}\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.ok(answer.endsWith('{"detail":"Request headers too large."}'));
  });

  test('a path parameter longer than 100 characters names no record: a JSON 404 with the API headers', async () => {
    const answer = await request(t.origin, `/api/v1/features/${'1'.repeat(101)}/`);
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.json(), { detail: 'Not found.' });
    assert.equal(answer.headers.allow, 'GET, HEAD, OPTIONS');
  });
});

describe('requests node would drop or answer on its own', () => {
  test('CONNECT gets a JSON 405, not a dropped connection', async () => {
    const answer = await rawRequest(t.origin, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    assert.match(answer, /\r\nAllow: GET, HEAD, OPTIONS\r\n/);
    assert.ok(answer.endsWith('{"detail":"Method \\"CONNECT\\" not allowed."}'), answer);
  });

  test('an HTTP/1.1 request without Host gets the JSON 400 of the Host check, not node\'s empty one', async () => {
    const answer = await rawRequest(t.origin, 'GET /api/v1/ HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.ok(answer.endsWith('{"detail":"Invalid host header."}'), answer);
  });

  test('a broken body after an answered request gets no second answer', async () => {
    const answer = await rawRequest(t.origin, 'GET /%ff/ HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n');
    assert.equal(answer.match(/HTTP\/1\.1 /g)?.length, 1, answer);
  });
});
