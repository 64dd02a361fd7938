// The drain's accept barrier (src/shutdown.ts) when the server's event loop stops for longer
// than ACCEPT_LIMIT_MS while the barrier waits for its probe, as a process descheduled on a
// busy machine, or rendering large answers, does: the connections the kernel established
// meanwhile are accepted and answered, not reset by the listener closing. The server runs in
// a worker thread, which Atomics.wait stops until this thread has connected its clients and
// the limit has passed, so nothing depends on how fast either side runs. (Before 167c5c9 the
// barrier gave up at the limit and closed the listener on them.)
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { test } from 'node:test';
import { ACCEPT_LIMIT_MS } from '../src/shutdown.js';
import { ensureCliBuilt } from './support/cli-entry.js';
import { ROOT } from './support/root.js';

const CLIENTS = 20;

/**
 * A server on trackConnections, told to drain. When the barrier connects its probe, the
 * worker's loop stops (until `flag` is set), as a loop busy elsewhere would stop: the probe
 * and the clients connecting meanwhile wait in the kernel's queue, unaccepted.
 */
const SERVER = `
import http from 'node:http';
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
const { trackConnections } = await import(workerData.shutdown);
const server = http.createServer((request, response) => response.end('ok'));
const drainer = trackConnections(server);
const connect = net.connect;
net.connect = (...args) => {
  parentPort.postMessage({ stopped: true });
  Atomics.wait(workerData.flag, 0, 0, 60000);
  return connect.apply(net, args);
};
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.once('message', async () => parentPort.postMessage({ drained: await drainer.drain(30000) }));
`;

interface Answer {
  status?: number;
  body?: string;
  error?: string;
}

function ask(port: number, connected: () => void): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode, body }));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    request.once('socket', (socket) => socket.once('connect', connected));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

test(`a loop stopped past ACCEPT_LIMIT_MS during the drain: the ${CLIENTS} connections the kernel queued meanwhile are each answered`, { timeout: 60_000 }, async () => {
  ensureCliBuilt();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const shutdown = pathToFileURL(path.join(ROOT, 'dist/shutdown.js')).href;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(SERVER)}`), { workerData: { flag, shutdown } });
  try {
    // The worker's messages come one at a time, each after what the test did last.
    const [{ port }] = (await once(worker, 'message')) as [{ port: number }];
    worker.postMessage('drain');
    await once(worker, 'message');
    const stoppedAt = Date.now();
    const drainedMessage = once(worker, 'message');
    let established = 0;
    let allEstablished!: () => void;
    const connected = new Promise<void>((resolve) => (allEstablished = resolve));
    const answers = Promise.all(Array.from({ length: CLIENTS }, () => ask(port, () => ++established === CLIENTS && allEstablished())));
    await connected;
    // The loop stays stopped until the barrier's old limit is certainly past.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + ACCEPT_LIMIT_MS + 200 - Date.now())));
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    assert.deepEqual(await answers, Array.from({ length: CLIENTS }, () => ({ status: 200, body: 'ok' })));
    const [{ drained }] = (await drainedMessage) as [{ drained: { open: number; cut: number } }];
    assert.equal(drained.cut, 0);
  } finally {
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    await worker.terminate();
  }
});
