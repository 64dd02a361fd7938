// Servers reading from a real streaming replica (a second PostgreSQL cluster made by
// test/support/replica.ts) while `import` writes to the primary: the switch under load,
// the replica going away and coming back, /readyz's lag, and commands that must refuse it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type pg from 'pg';
import { exitCode, runCli, startCliServer } from '../support/cli.js';
import { request } from '../support/http.js';
import { importUnderLoad, liveCatalogues } from '../support/live-update.js';
import { caughtUp, onReplica, withReplicaClient, type Replica } from '../support/replica.js';
import { importInto, temporaryDir } from '../support/server.js';
import { createTestDatabase, withPgClient, type TestDatabase } from '../support/stores.js';

const VERSION_POLL_MS = 1000;
const UNAVAILABLE = { detail: 'Service unavailable.' };

type Served = Awaited<ReturnType<typeof startCliServer>>;

/** Polls until `check` holds; fails after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`timed out waiting for ${what}`);
}

async function versionIn(client: pg.Client, schema: string): Promise<number> {
  const { rows } = await client.query(`SELECT value FROM ${schema}.meta WHERE key = 'catalogue_version'`);
  return Number(rows[0].value);
}

/** When the primary and the replica each first show a catalogue version above `from` (ms, performance.now()). */
function watchVersion(replica: Replica, schema: string, from: number): { stop(): Promise<{ primary: number; replica: number }> } {
  let running = true;
  const seenAt = { primary: Number.NaN, replica: Number.NaN };
  const watch = (side: 'primary' | 'replica', connect: (work: (c: pg.Client) => Promise<void>) => Promise<void>) =>
    connect(async (client) => {
      while (running && Number.isNaN(seenAt[side])) {
        if ((await versionIn(client, schema)) > from) seenAt[side] = performance.now();
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
  const watching = Promise.all([watch('primary', withPgClient), watch('replica', (work) => withReplicaClient(replica, work))]);
  return {
    stop: async () => {
      await until('the replica to show the new version', async () => !Number.isNaN(seenAt.replica) && !Number.isNaN(seenAt.primary));
      running = false;
      await watching;
      return seenAt;
    },
  };
}

/** SIGTERM, and a failure (after SIGKILL) if the server does not exit by itself within 15 s. */
async function stopServer(served: Served): Promise<void> {
  served.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 15_000)));
  const result = await Promise.race([exitCode(served.child), late]);
  clearTimeout(timer);
  if (result !== 'late') return;
  served.child.kill('SIGKILL');
  await exitCode(served.child);
  assert.fail(`a server did not exit within 15 s of SIGTERM: ${served.stderr()}`);
}

let unique = 0;
/** A URL never asked before, so the answer cannot come from a cache and must reach the database. */
const fresh = (p: string) => `${p}${p.includes('?') ? '&' : '?'}fresh=${++unique}`;

await onReplica((replica) => {
  let database: TestDatabase;
  let schema: string;
  let dir: string;
  let catalogues: ReturnType<typeof liveCatalogues>;
  const onReplicaArgs = () => ['--db', replica.url, '--schema', schema];
  const servers: { replicaA: Served; replicaB: Served; primary: Served } = {} as never;

  before(async () => {
    database = createTestDatabase('postgres');
    schema = database.settings.databaseSchema!;
    dir = temporaryDir();
    catalogues = liveCatalogues(dir);
    await importInto(database.settings, catalogues.oldCatalogue);
    await caughtUp(replica);
    const env = { VERSION_POLL_MS: String(VERSION_POLL_MS) };
    servers.replicaA = await startCliServer(onReplicaArgs(), env);
    servers.replicaB = await startCliServer(onReplicaArgs(), env);
    servers.primary = await startCliServer(database.args, env);
  });
  after(async () => {
    try {
      for (const s of Object.values(servers)) await stopServer(s);
    } finally {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('/readyz: the primary says so; a replica gives its lag in seconds', async () => {
    const primary = await request(servers.primary.origin, '/readyz');
    assert.equal(primary.status, 200);
    assert.deepEqual(primary.json(), { status: 'ready', catalogue_version: 1, database: 'primary' });
    const ready = await request(servers.replicaA.origin, '/readyz');
    assert.equal(ready.status, 200);
    const body = ready.json();
    assert.deepEqual({ ...body, replica_lag_seconds: typeof body.replica_lag_seconds }, { status: 'ready', catalogue_version: 1, database: 'replica', replica_lag_seconds: 'number' });
    assert.ok(body.replica_lag_seconds >= 0);
  });

  test('contributions on a replica: sent to PRIMARY_URL (307, the path and query kept), or 503 with why; the public pages still served', async () => {
    const alone = await startCliServer(onReplicaArgs(), { CONTRIBUTIONS: '1' });
    const sending = await startCliServer(onReplicaArgs(), { CONTRIBUTIONS: '1', PRIMARY_URL: 'https://heritage.example.org' });
    try {
      const refused = await request(alone.origin, '/account/signin');
      assert.equal(refused.status, 503);
      assert.deepEqual(refused.json(), { detail: 'This server is a read-only copy: accounts and contributions are not served here.' });
      const post = await request(alone.origin, '/contribute/1/document', { method: 'POST', body: 'csrf=x&title=y', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(post.status, 503);
      for (const path of ['/account/signin', '/moderate/3', '/contribute/1/document?from=map']) {
        const sent = await request(sending.origin, path);
        assert.equal(sent.status, 307, path);
        assert.equal(sent.headers.location, `https://heritage.example.org${path}`);
      }
      const someone = catalogues.oldCatalogue.features[0]!.id;
      // A new server's first record page starts its worker threads (the streets' labels are a
      // costly read): under the whole suite's load that once took over the default 10 s.
      const page = await request(alone.origin, `/places/${someone}/`, { headers: { accept: 'text/html' }, timeoutMs: 60_000 });
      assert.equal(page.status, 200, 'the public pages');
      // Without a primary to send them to, no page leads to the forms (they would answer 503).
      assert.ok(!page.text.includes('Know something about it?'), 'no contribution links');
      assert.ok(!page.text.includes('/contribute/') && !page.text.includes('/account/'), 'no form nor account linked');
      const sent = await request(sending.origin, `/places/${someone}/`, { headers: { accept: 'text/html' }, timeoutMs: 60_000 });
      assert.ok(sent.text.includes('Know something about it?'), 'with PRIMARY_URL the links lead to the primary\'s forms');
      assert.ok(sent.text.includes(`/contribute/${someone}/image"`) && sent.text.includes('/account/signin"'));
    } finally {
      await stopServer(alone);
      await stopServer(sending);
    }
  });

  test('MAX_REPLICA_LAG_MS: a replica whose replay is held back is not ready, and ready again once it catches up', async () => {
    const strict = await startCliServer(onReplicaArgs(), { MAX_REPLICA_LAG_MS: '1000' });
    try {
      await withReplicaClient(replica, (c) => c.query('SELECT pg_wal_replay_pause()'));
      try {
        // A commit on the primary the replica receives but does not replay: it falls behind.
        await withPgClient((c) => c.query('SELECT txid_current()'));
        await until('/readyz to fail', async () => (await request(strict.origin, '/readyz')).status === 503);
        const lagging = (await request(strict.origin, '/readyz')).json();
        assert.equal(lagging.status, 'lagging');
        assert.equal(lagging.database, 'replica');
        assert.ok(lagging.replica_lag_seconds > 1, `lag ${lagging.replica_lag_seconds}`);
        // Each server measures the lag from its own probes, so this one may first see a
        // smaller lag; while replay is held back it grows, and the server stays ready.
        await until('the server without the setting to see the lag', async () => {
          const relaxed = await request(servers.replicaA.origin, '/readyz');
          assert.equal(relaxed.status, 200, 'without the setting a lagging replica stays ready');
          return relaxed.json().replica_lag_seconds > 1;
        });
      } finally {
        await withReplicaClient(replica, (c) => c.query('SELECT pg_wal_replay_resume()'));
      }
      // The answer that passed is the one judged: the primary is shared with the files that
      // run beside this one, and their imports' WAL may put the replica honestly behind again
      // by the next request (seen once in a full run: 'lagging' just after a 200).
      let caughtUp: { status?: string } = {};
      await until('/readyz to pass', async () => {
        const answer = await request(strict.origin, '/readyz');
        caughtUp = answer.json();
        return answer.status === 200;
      });
      assert.equal(caughtUp.status, 'ready');
    } finally {
      await stopServer(strict);
    }
  });

  test('import, migrate and export pointed at the replica: one sentence, exit 1, nothing changed', async () => {
    const before = await withPgClient((c) => versionIn(c, schema));
    const out = path.join(dir, 'export.json');
    const otherSchema = `${schema}_never`;
    const runs = {
      import: await runCli(['import', catalogues.file, ...onReplicaArgs()]),
      migrate: await runCli(['migrate', '--db', replica.url, '--schema', otherSchema]),
      export: await runCli(['export', '--out', out, ...onReplicaArgs()]),
    };
    const where = new URL(replica.url);
    for (const [command, run] of Object.entries(runs)) {
      assert.equal(run.code, 1, `${command}: ${run.stderr}`);
      assert.equal(run.stdout, '', command);
      assert.ok(run.stderr.includes(`${where.host}`), `${command} names the database: ${run.stderr}`);
      assert.match(run.stderr, /is a read-only replica \(a standby in recovery\): point import, migrate and export at the primary\. Nothing was changed\.\n$/, command);
      assert.equal(run.stderr.trim().split('\n').length, 1, `${command}: one line`);
    }
    assert.equal(fs.existsSync(out), false, 'export wrote no file');
    assert.equal(await withPgClient((c) => versionIn(c, schema)), before, 'the primary still holds the same catalogue');
    const created = await withPgClient((c) => c.query('SELECT to_regnamespace($1) AS s', [otherSchema]));
    assert.equal(created.rows[0].s, null, 'migrate created no schema');
  });

  test('an import into the primary under load: the replicas\' servers and the primary\'s switch with no error and no mixed answer', async (t) => {
    const { oldCatalogue, fresh: newCatalogue, file } = catalogues;
    const from = await withPgClient((c) => versionIn(c, schema));
    const origins = [servers.replicaA.origin, servers.replicaB.origin, servers.primary.origin];
    let watcher: ReturnType<typeof watchVersion> | undefined;
    const { requests, seen, lastOldAfterImport } = await importUnderLoad(origins, oldCatalogue, newCatalogue, async () => {
      watcher = watchVersion(replica, schema, from);
      const imported = await runCli(['import', file, ...database.args]);
      assert.equal(imported.code, 0, imported.stderr);
    });
    const seenAt = await watcher!.stop();
    const delayMs = Math.max(0, seenAt.replica - seenAt.primary);
    const switched = origins.map((o) => lastOldAfterImport.get(o)!);
    t.diagnostic(`${requests} requests: ${seen.old} old, ${seen.new} new; replication delay of the import's commit ${delayMs.toFixed(1)} ms; last old answer after the import: replica servers ${switched[0]} and ${switched[1]} ms, primary server ${switched[2]} ms (VERSION_POLL_MS ${VERSION_POLL_MS})`);
    assert.ok(seen.old > 0 && seen.new > 0, 'both catalogues were served');
    assert.ok(requests > 50, `only ${requests} requests ran`);
    // One poll interval, the replication delay, and one request in flight when the version moved.
    const bound = VERSION_POLL_MS + delayMs + 1000;
    for (const [i, ms] of switched.entries()) assert.ok(ms <= bound, `${origins[i]} served the old catalogue ${ms} ms after the import (bound ${bound} ms)`);
  });

  test('the replica stopped and started under load: 503 with Retry-After while it is away, then recovery by itself', async () => {
    const replicaOrigins = [servers.replicaA.origin, servers.replicaB.origin];
    const statuses = new Map<string, Set<number>>(replicaOrigins.map((o) => [o, new Set()]));
    let loading = true;
    let failure: unknown = null;
    const load = async (origin: string) => {
      for (let i = 0; loading; i++) {
        const answer = await request(origin, fresh(['/api/v1/features/', '/api/v1/images/', '/api/v1/features/?page=2&page_size=3'][i % 3]!));
        if (answer.status === 503) {
          assert.deepEqual(answer.json(), UNAVAILABLE);
          assert.equal(answer.headers['retry-after'], '1');
        } else {
          assert.equal(answer.status, 200, `${origin}: ${answer.status} ${answer.text}`);
        }
        statuses.get(origin)?.add(answer.status);
      }
    };
    const loads = [...replicaOrigins, ...replicaOrigins, servers.primary.origin].map((origin) =>
      load(origin).catch((error: unknown) => {
        failure ??= error;
        loading = false;
      }));
    /** Every replica server has answered `status` since the last clear (a failed answer stops the wait). */
    const allAnswered = (status: number) => async () => {
      if (failure !== null) throw failure;
      return replicaOrigins.every((o) => statuses.get(o)!.has(status));
    };
    try {
      await until('answers from the replica', allAnswered(200));
      await replica.stop();
      await until('both replica servers to answer 503', allAnswered(503));
      for (const origin of replicaOrigins) assert.equal((await request(origin, '/readyz')).status, 503);
      assert.equal((await request(servers.primary.origin, fresh('/api/v1/features/'))).status, 200, 'the primary\'s server is untouched');
      for (const set of statuses.values()) set.clear();
      await replica.start();
      await until('both replica servers to read again', allAnswered(200));
    } finally {
      loading = false;
      await Promise.all(loads);
    }
    if (failure !== null) throw failure;
    for (const origin of replicaOrigins) assert.equal((await request(origin, '/readyz')).status, 200);
    for (const s of [servers.replicaA, servers.replicaB]) assert.equal(s.child.exitCode, null, 'no server crashed');
  });
});
