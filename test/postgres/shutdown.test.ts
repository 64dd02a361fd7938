// Graceful shutdown on PostgreSQL: requests that are waiting on the database when SIGTERM
// arrives (held by a lock the test takes, so they are certainly in flight) are answered in
// full once it is released; meanwhile new connections are refused; then exit 0.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { spawnServe, waitUntilRefused } from '../support/drain.js';
import { request } from '../support/http.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, postgresUnavailableReason, TEST_PG_URL, type TestDatabase } from '../support/stores.js';
import pg from 'pg';

const reason = await postgresUnavailableReason();
const skip = reason !== null && process.env.HERITAGE_TEST_POSTGRES !== 'required' ? reason : false;

let database: TestDatabase;
before(async () => {
  if (skip) return;
  database = createTestDatabase('postgres');
  await importInto(database.settings, buildTestCatalogue());
});
after(() => (skip ? undefined : database.drop()));

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
