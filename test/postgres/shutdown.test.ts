// Graceful shutdown on PostgreSQL: requests that are waiting on the database when SIGTERM
// arrives (held by a lock the test takes, so they are certainly in flight) are answered in
// full once it is released; meanwhile new connections are refused; then exit 0. And SIGTERM
// just after a burst of new connections resets none of them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { catalogueWithBigFeature, sigtermDuringBursts, spawnServe, waitUntilRefused } from '../support/drain.js';
import { request } from '../support/http.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, postgresUnavailableReason, TEST_PG_URL, type TestDatabase } from '../support/stores.js';
import pg from 'pg';

const reason = await postgresUnavailableReason();
const skip = reason !== null && process.env.HERITAGE_TEST_POSTGRES !== 'required' ? reason : false;

let database: TestDatabase;
let bigDatabase: TestDatabase;
before(async () => {
  if (skip) return;
  database = createTestDatabase('postgres');
  await importInto(database.settings, buildTestCatalogue());
  bigDatabase = createTestDatabase('postgres');
  await importInto(bigDatabase.settings, catalogueWithBigFeature());
});
after(async () => {
  if (skip) return;
  await database.drop();
  await bigDatabase.drop();
});

const BURST_URLS = ['/api/v1/', '/api/v1/features/', '/api/v1/features/?page=2', '/api/v1/images/', '/api/v1/documents/', '/api/v1/media/'];

for (const delay of ['0', '200']) {
  test(`SIGTERM just after a burst of new connections (SHUTDOWN_DELAY_MS=${delay}): none is reset, every request is answered whole`, { skip, timeout: 120_000 }, async () => {
    const { outcomes, exits } = await sigtermDuringBursts(bigDatabase.args, { SHUTDOWN_DELAY_MS: delay, DB_TIMEOUT_MS: '60000' }, 3, BURST_URLS);
    assert.deepEqual(exits, [0, 0, 0]);
    const failed = outcomes.filter((o) => !('status' in o) || o.status !== 200 || !o.complete);
    assert.deepEqual(failed, [], `${failed.length} of ${outcomes.length} requests failed`);
  });
}

test('SIGTERM while requests wait on PostgreSQL: they are answered whole once it answers, then exit 0', { skip, timeout: 60_000 }, async () => {
  const schema = database.settings.databaseSchema!;
  const serve = await spawnServe(database.args, { SHUTDOWN_TIMEOUT_MS: '60000', DB_TIMEOUT_MS: '60000' });
  const locker = new pg.Client({ connectionString: TEST_PG_URL });
  const watcher = new pg.Client({ connectionString: TEST_PG_URL });
  await locker.connect();
  await watcher.connect();
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${schema}.features IN ACCESS EXCLUSIVE MODE`);
    // Distinct URLs, so that no answer comes from the cache.
    const pending = Array.from({ length: 5 }, (_, i) => request(serve.origin, `/api/v1/features/?page_size=${11 + i}`));
    const waiting = async () => {
      const { rows } = await watcher.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = '${schema}.features'::regclass`);
      return rows[0].n as number;
    };
    for (let i = 0; i < 200 && (await waiting()) < 5; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await waiting(), 5, 'five reads are waiting on the lock');
    serve.child.kill('SIGTERM');
    await waitUntilRefused(serve.origin);
    assert.equal(serve.child.exitCode, null, 'the process waits for the requests in flight');
    await locker.query('COMMIT');
    const answers = await Promise.all(pending);
    for (const [i, answer] of answers.entries()) {
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.connection, 'close');
      assert.equal(answer.json().results.features.length, 11 + i);
    }
    assert.equal(await serve.exited, 0);
  } finally {
    await locker.end();
    await watcher.end();
    serve.child.kill('SIGKILL');
  }
});
