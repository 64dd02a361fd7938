// `serve --workers N`: N processes share one port; a worker that dies is replaced; SIGTERM
// stops them all and the primary exits 0; /metrics answers for all of them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { buildTestCatalogue } from './support/catalogue.js';
import { exitCode } from './support/cli.js';
import { CLI_ENTRY, ensureCliBuilt } from './support/cli-entry.js';
import { spawnServe, waitForAsync } from './support/drain.js';
import { request } from './support/http.js';
import { createTestDatabase, type TestDatabase } from './support/stores.js';
import { importInto } from './support/server.js';

const WORKER_LINE = /worker (\d+) serving .* at (http:\/\/\S+?)\/api\/v1\//g;

let database: TestDatabase;
before(async () => {
  database = createTestDatabase('sqlite');
  await importInto(database.settings, buildTestCatalogue());
});
after(() => database.drop());

test('serve --workers 2: two processes answer on one port, a killed worker is replaced, SIGTERM exits 0', async () => {
  ensureCliBuilt();
  // No SHUTDOWN_DELAY_MS (5 s by default) to wait out at the SIGTERM: the delay has its tests in shutdown.test.ts.
  const child = spawn(process.execPath, [CLI_ENTRY, 'serve', '--port', '0', '--log-level', 'warn', '--workers', '2', ...database.args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SHUTDOWN_DELAY_MS: '0' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const workers = () => [...stderr.matchAll(WORKER_LINE)].map((m) => ({ pid: Number(m[1]), origin: m[2]! }));
  const waitForWorkers = async (n: number) => {
    const deadline = Date.now() + 15_000;
    while (workers().length < n) {
      assert.ok(Date.now() < deadline, `expected ${n} workers: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  try {
    await waitForWorkers(2);
    const [first, second] = workers();
    assert.notEqual(first!.pid, second!.pid);
    assert.equal(first!.origin, second!.origin, 'the workers share one port');
    for (let i = 0; i < 10; i++) assert.equal((await request(first!.origin, '/api/v1/features/')).status, 200);

    process.kill(first!.pid, 'SIGKILL');
    await waitForWorkers(3);
    assert.match(stderr, new RegExp(`worker ${first!.pid} exited \\(SIGKILL\\); starting another`));
    assert.equal((await request(first!.origin, '/api/v1/images/')).status, 200);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exitCode(child), 0);
  for (const { pid } of workers()) assert.throws(() => process.kill(pid, 0), 'every worker has exited');
});

/** Sum of the samples of a metric whose labels include `route="/api/v1/…"`. */
function apiRequests(text: string): number {
  const lines = text.split('\n').filter((l) => l.startsWith('heritage_http_requests_total{') && l.includes('route="/api/v1/'));
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

test('serve --workers 2: /metrics counts the requests of every worker, whichever worker answers the scrape', async () => {
  const serve = await spawnServe([...database.args, '--workers', '2']);
  try {
    await waitForAsync('two workers', async () => serve.stderr().match(/ serving /g)!.length === 2);
    const urls = ['/api/v1/', '/api/v1/features/', '/api/v1/images/', '/api/v1/documents/', '/api/v1/media/', '/api/v1/features/?page=2'];
    const N = 30;
    for (let i = 0; i < N; i++) assert.equal((await request(serve.origin, urls[i % urls.length]!)).status, 200);
    const scrape = async () => {
      const answer = await request(serve.origin, '/metrics');
      assert.equal(answer.status, 200);
      return answer.text;
    };
    // The last request is counted once its answer has gone out: wait for it.
    await waitForAsync(`${N} API requests counted`, async () => apiRequests(await scrape()) === N);
    // Each scrape on a connection of its own: the workers take them in turn.
    for (let i = 0; i < 6; i++) assert.equal(apiRequests(await scrape()), N);
    const version = (await request(serve.origin, '/readyz')).json().catalogue_version;
    assert.match(await scrape(), new RegExp(`^heritage_catalogue_version ${version}$`, 'm'), 'the same in every worker: not summed');
  } finally {
    serve.child.kill('SIGTERM');
  }
  assert.equal(await serve.exited, 0);
});
