// Graceful shutdown of `serve`: on SIGTERM or SIGINT the listener closes (SIGTERM: after
// SHUTDOWN_DELAY_MS, /readyz failing meanwhile while the rest is still served); every
// request already received is answered in full (even to a client reading slowly), idle
// keep-alive connections are closed without waiting for the deadline, the store closes and
// the process exits 0. Past SHUTDOWN_TIMEOUT_MS what is left is cut and it still exits 0.
// Connections the kernel established before the listener closed are all answered, none reset
// (shutdown-bursts.test.ts, a file of its own so that the two run side by side).
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import { request } from './support/http.js';
import {
  BIG_FEATURE_ID,
  BIG_URL,
  LOAD_URLS,
  keepAliveLoad,
  pausedRequest,
  spawnServe,
  useBigFeatureDatabase,
  waitFor,
  waitUntilRefused,
  waitForAsync,
  type PausedRequest,
  type ServeProcess,
} from './support/drain.js';

const database = useBigFeatureDatabase();

async function pausedBigAnswers(origin: string, count: number): Promise<PausedRequest[]> {
  const paused = await Promise.all(Array.from({ length: count }, () => pausedRequest(origin, BIG_URL)));
  for (const p of paused) assert.equal(p.status, 200);
  return paused;
}

/** Each answer whole: all of it arrived, the first is the big feature's, and every other the same bytes (a memcmp, not a parse of megabytes). */
async function assertWhole(paused: PausedRequest[]): Promise<void> {
  let first: Buffer | undefined;
  for (const p of paused) {
    const { bytes, complete } = await p.finish();
    assert.ok(complete, 'the answer was not cut');
    assert.equal(bytes.length, p.contentLength);
    if (first === undefined) assert.equal(JSON.parse(bytes.toString('utf8')).id, BIG_FEATURE_ID);
    else assert.ok(bytes.equals(first), 'every answer to the same request is the same bytes');
    first ??= bytes;
  }
}

async function stillDraining(serve: ServeProcess): Promise<void> {
  assert.equal(serve.child.exitCode, null, 'the process waits for the slow readers');
  assert.doesNotMatch(serve.stderr(), /stopped\./);
}

describe('graceful shutdown', { timeout: 600_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} under load: every request received is answered whole, new connections are refused, exit 0`, async () => {
      const serve = await spawnServe(database.args, { SHUTDOWN_TIMEOUT_MS: '60000' });
      let signalled = false;
      const load = keepAliveLoad(serve.origin, LOAD_URLS, 12, () => signalled);
      try {
        // Slow requests: answers of ~12 MB that their clients have stopped reading.
        const slow = await pausedBigAnswers(serve.origin, 4);
        await waitFor('steady load', () => load.outcomes.length >= 300);
        serve.child.kill(signal);
        signalled = true;
        await waitUntilRefused(serve.origin);
        await stillDraining(serve);
        await assertWhole(slow);
        await load.done;
        assert.equal(await serve.exited, 0);
        assert.match(serve.stderr(), new RegExp(`${signal}: no new connections[^]*stopped\\.`));

        const answers = load.outcomes.filter((o) => o.kind === 'answer');
        const errors = load.outcomes.filter((o) => o.kind === 'error');
        assert.ok(answers.length >= 300, `${answers.length} answers`);
        for (const a of answers) assert.deepEqual([a.status, a.complete], [200, true]);
        // Each client ends on a refused connection: it only opens one after an answer with
        // `Connection: close`, given once the drain began. A reset on a reused idle
        // connection is HTTP's keep-alive race (the client retries); none is expected here.
        assert.deepEqual(errors.map((e) => e.code), Array(12).fill('ECONNREFUSED'));
        assert.ok(answers.some((a) => a.afterSignal && a.connectionClose), 'answers during the drain close their connection');
      } finally {
        load.stop();
        serve.child.kill('SIGKILL');
      }
    });
  }

  test('SIGTERM as soon as serve says it is serving: it stops gracefully (exit 0), never killed by the signal', async () => {
    const once = async () => {
      const serve = await spawnServe(database.args);
      serve.child.kill('SIGTERM');
      const code = await serve.exited;
      return code ?? `killed by ${serve.child.signalCode}`;
    };
    // Two at a time: each start is a second of one core's work; the race is within each process.
    const codes: (number | string)[] = [];
    for (let i = 0; i < 10; i += 2) codes.push(...(await Promise.all([once(), once()])));
    assert.deepEqual(codes, Array(10).fill(0));
  });

  for (const workers of [1, 2]) {
    test(`SIGTERM with SHUTDOWN_DELAY_MS (${workers} process(es)): /readyz answers 503 at once while the API and new connections are still served`, async () => {
      // The flag with workers (the primary hands its command line on), the environment without.
      const args = workers > 1 ? [...database.args, '--workers', String(workers), '--shutdown-delay-ms', '600000'] : database.args;
      const serve = await spawnServe(args, workers > 1 ? {} : { SHUTDOWN_DELAY_MS: '600000' });
      try {
        await waitFor(`${workers} worker(s)`, () => serve.stderr().match(/ serving /g)!.length === workers);
        assert.equal((await request(serve.origin, '/readyz')).status, 200);
        serve.child.kill('SIGTERM');
        // Every process has had the signal once /readyz fails on as many fresh connections in a row.
        let failedInARow = 0;
        await waitForAsync('/readyz to fail', async () => {
          const ready = await request(serve.origin, '/readyz');
          failedInARow = ready.status === 503 ? failedInARow + 1 : 0;
          if (ready.status === 503) assert.deepEqual(ready.json(), { status: 'stopping' });
          return failedInARow >= 2 * workers;
        });
        for (let i = 0; i < 2 * workers; i++) {
          assert.equal((await request(serve.origin, '/api/v1/')).status, 200);
        }
        assert.equal(serve.child.exitCode, null);
        assert.match(serve.stderr(), /SIGTERM: \/readyz answers 503; still serving new connections for 600000 ms/);
        assert.doesNotMatch(serve.stderr(), /no new connections/);
      } finally {
        serve.child.kill('SIGKILL');
      }
    });
  }

  test('an idle keep-alive connection is closed at once, not at the deadline', async () => {
    const serve = await spawnServe(database.args, { SHUTDOWN_TIMEOUT_MS: '60000' });
    try {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const { hostname, port } = new URL(serve.origin);
      const idleClosed = new Promise<void>((resolve) => {
        http.get({ host: hostname, port, path: '/api/v1/', agent }, (res) => {
          assert.equal(res.headers.connection, 'keep-alive');
          res.socket.once('close', () => resolve());
          res.resume();
        });
      });
      const slow = await pausedBigAnswers(serve.origin, 1);
      serve.child.kill('SIGTERM');
      await idleClosed;
      await stillDraining(serve);
      await assertWhole(slow);
      assert.equal(await serve.exited, 0);
      agent.destroy();
    } finally {
      serve.child.kill('SIGKILL');
    }
  });

  for (const workers of [1, 2]) {
    test(`every request's log line reaches standard output by the time serve exits (${workers} process(es))`, async () => {
      // spawnServe's --log-level warn, overridden: the request log is on, as by default.
      const args = [...database.args, '--workers', String(workers), '--log-level', 'info'];
      const serve = await spawnServe(args, { SHUTDOWN_DELAY_MS: '0' });
      try {
        await waitFor(`${workers} worker(s)`, () => serve.stderr().match(/ serving /g)!.length === workers);
        // Twice each URL: the second is answered from the cache (the fast path's own log line).
        const ids = Array.from({ length: 2 * LOAD_URLS.length }, (_, i) => `exit-flush-${i}`);
        for (const [i, id] of ids.entries()) {
          const answer = await request(serve.origin, LOAD_URLS[i % LOAD_URLS.length]!, { headers: { 'x-request-id': id } });
          assert.equal(answer.status, 200);
        }
        serve.child.kill('SIGINT');
        assert.equal(await serve.exited, 0);
        const logged = serve.stdout().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { request_id?: string });
        for (const id of ids) assert.equal(logged.filter((line) => line.request_id === id).length, 1, `the line of ${id}`);
      } finally {
        serve.child.kill('SIGKILL');
      }
    });
  }

  test('past SHUTDOWN_TIMEOUT_MS a client that never reads is cut, and the process still exits 0', async () => {
    const serve = await spawnServe(database.args, { SHUTDOWN_TIMEOUT_MS: '500' });
    try {
      const [stuck] = await pausedBigAnswers(serve.origin, 1);
      serve.child.kill('SIGTERM');
      assert.equal(await serve.exited, 0);
      const { bytes, complete } = await stuck!.finish();
      assert.ok(!complete && bytes.length < stuck!.contentLength, `${bytes.length} of ${stuck!.contentLength} bytes`);
      assert.match(serve.stdout(), /1 request\(s\) still in progress after 500 ms were cut/);
    } finally {
      serve.child.kill('SIGKILL');
    }
  });

  const signals = [
    { name: 'SIGTERM to the primary', group: false, send: (pid: number) => process.kill(pid, 'SIGTERM') },
    { name: 'SIGINT to the whole process group (Ctrl-C)', group: true, send: (pid: number) => process.kill(-pid, 'SIGINT') },
  ];
  for (const { name, group, send } of signals) {
    test(`serve --workers 2, ${name}: every worker drains, then exit 0`, async () => {
      const serve = await spawnServe([...database.args, '--workers', '2'], { SHUTDOWN_TIMEOUT_MS: '60000' }, group);
      const workerPids = () => [...serve.stderr().matchAll(/worker (\d+) serving/g)].map((m) => Number(m[1]));
      try {
        await waitFor('two workers', () => workerPids().length === 2);
        // Enough slow answers that, shared round-robin, both workers hold some.
        const slow = await pausedBigAnswers(serve.origin, 6);
        send(serve.child.pid!);
        await waitUntilRefused(serve.origin);
        await stillDraining(serve);
        await assertWhole(slow);
        assert.equal(await serve.exited, 0);
        assert.equal([...serve.stderr().matchAll(/worker \d+: SIG(TERM|INT): no new connections/g)].length, 2);
        assert.equal([...serve.stderr().matchAll(/worker \d+: stopped\./g)].length, 2);
        for (const pid of workerPids()) assert.throws(() => process.kill(pid, 0), 'every worker has exited');
      } finally {
        serve.child.kill('SIGKILL');
      }
    });
  }
});
