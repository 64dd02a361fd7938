// What only PostgreSQL has: migrations in a schema of its own, PostGIS footprints, and a
// database that can go away and come back while servers keep running.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { crawl } from '../support/crawl.js';
import { request } from '../support/http.js';
import { onPostgres } from '../support/on-postgres.js';
import { importInto, startTestServer, temporaryDir, type TestServer } from '../support/server.js';
import { loadConfig } from '../../src/config.js';
import { LATEST_MIGRATION, MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { startServer } from '../../src/server.js';
import { TEST_PG_URL, createTestDatabase, withPgClient } from '../support/stores.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const until = async (what: string, check: () => Promise<boolean>, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
};

const UNAVAILABLE = { detail: 'Service unavailable.' };
// Answers already rendered are served from the cache even while the database is away:
// each request here asks for a URL never asked before, so it must reach the database.
let unique = 0;
const fresh = (path: string) => `${path}${path.includes('?') ? '&' : '?'}fresh=${++unique}`;
const PG_ADDRESS = { host: new URL(TEST_PG_URL).hostname, port: Number(new URL(TEST_PG_URL).port || 5432) };

function throughProxy(proxy: TcpProxy): string {
  const url = new URL(TEST_PG_URL);
  url.port = String(proxy.port);
  return url.toString();
}

await onPostgres(async () => {
  describe('migrations: versioned, in their own schema', () => {
    test('migrate creates the schema at the latest version; running it again changes nothing', async () => {
      const db = createTestDatabase('postgres');
      try {
        for (let run = 0; run < 2; run++) {
          const result = await runCli(['migrate', ...db.args]);
          assert.equal(result.code, 0, result.stderr);
          assert.match(result.stderr, new RegExp(`is up to date \\(migration ${LATEST_MIGRATION}\\)`));
        }
        const schema = db.settings.databaseSchema!;
        const rows = await withPgClient(async (c) => (await c.query(`SELECT version FROM ${schema}.schema_migrations`)).rows);
        assert.deepEqual(rows, MIGRATIONS.map((m) => ({ version: m.version })));
        const tables = await withPgClient(async (c) =>
          (await c.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [schema])).rows.map((r) => r.table_name),
        );
        assert.deepEqual(tables, [
          'accounts', 'authors', 'categories', 'contribution_pictures', 'contributions', 'documents', 'documents_search', 'feature_categories', 'feature_category_names', 'feature_tags', 'features',
          'features_search', 'images', 'images_search', 'media', 'media_search', 'meta', 'password_resets', 'record_changes', 'schema_migrations', 'sessions', 'site_secrets', 'sites', 'street_labels', 'tile_levels', 'tiles',
        ]);
      } finally {
        await db.drop();
      }
    });

    test('serving a schema with no catalogue: one clear sentence, exit 1', async () => {
      const db = createTestDatabase('postgres');
      const result = await runCli(['serve', '--port', '0', ...db.args]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^heritage-api: .* has no heritage-api catalogue in schema "heritage_test_\w+": import one first/);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    });

    test('a bad schema name is refused before anything is touched', async () => {
      const result = await runCli(['migrate', '--db', TEST_PG_URL, '--schema', 'drop table; x']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /schema name must be lower-case letters/);
    });
  });

  describe('footprints in PostGIS, coordinates served exactly', () => {
    let t: TestServer;
    let schema: string;
    before(async () => {
      const database = createTestDatabase('postgres');
      schema = database.settings.databaseSchema!;
      t = await startTestServer({ database });
    });
    after(() => t.close());

    test('geom is a MultiPolygon in SRID 4326 with a GiST index, one per feature', async () => {
      const info = await withPgClient(async (c) => {
        const column = await c.query(`SELECT type, srid FROM geometry_columns WHERE f_table_schema = $1 AND f_table_name = 'features'`, [schema]);
        const index = await c.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'features_geom'`, [schema]);
        const counts = await c.query(`SELECT count(*)::int AS n, (count(*) FILTER (WHERE ST_IsEmpty(geom)))::int AS empty FROM ${schema}.features`);
        return { column: column.rows, index: index.rows[0]?.indexdef as string, counts: counts.rows[0] };
      });
      assert.deepEqual(info.column, [{ type: 'MULTIPOLYGON', srid: 4326 }]);
      assert.match(info.index, /USING gist \(geom\)/);
      assert.equal(info.counts.n, buildTestCatalogue().features.length);
      assert.equal(info.counts.empty, 0);
    });

    test('a spatial query on geom finds a feature from one of its own vertices', async () => {
      const feature = buildTestCatalogue().features[0]!;
      const ring = feature.geometry.coordinates[0]![0]!;
      const [lon, lat] = ring[0]!;
      const ids = await withPgClient(async (c) =>
        (await c.query(`SELECT id FROM ${schema}.features WHERE ST_Intersects(geom, ST_SetSRID(ST_MakePoint($1, $2), 4326))`, [lon, lat])).rows.map((r) => r.id),
      );
      assert.ok(ids.includes(feature.id));
    });

    test('export from PostgreSQL, import into SQLite: both serve identical answers', async () => {
      const dir = temporaryDir();
      try {
        const file = path.join(dir, 'exported.json');
        const exported = await runCli(['export', ...t.dbArgs, '--out', file]);
        assert.equal(exported.code, 0, exported.stderr);
        const copy = await startTestServer({ catalogue: JSON.parse(fs.readFileSync(file, 'utf8')), database: createTestDatabase('sqlite') });
        try {
          const [a, b] = [await crawl(t), await crawl(copy)];
          const normalise = (pages: Map<string, string>, origin: string) => [...pages].map(([u, body]) => [u, body.replaceAll(origin, 'ORIGIN')]);
          assert.ok(a.size > 20);
          assert.deepEqual(normalise(b, copy.origin), normalise(a, t.origin));
        } finally {
          await copy.close();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('the database goes away and comes back', () => {
    let proxy: TcpProxy;
    let t: TestServer;
    let schema: string;
    before(async () => {
      proxy = await startTcpProxy(PG_ADDRESS);
      const database = createTestDatabase('postgres');
      schema = database.settings.databaseSchema!;
      t = await startTestServer({
        database: { ...database, settings: { database: throughProxy(proxy), databaseSchema: schema } },
        settings: { dbTimeoutMs: '300', versionPollMs: '100' },
      });
    });
    after(async () => {
      await t.close();
      await proxy.close();
    });

    test('503 {"detail": "Service unavailable."} within a second, /healthz still 200, then recovery by itself', async () => {
      assert.equal((await request(t.origin, '/api/v1/features/')).status, 200);
      await proxy.cut();
      for (const path of ['/api/v1/features/', '/api/v1/images/?page=2', '/api/v1/media/4/']) {
        const started = performance.now();
        const answer = await request(t.origin, fresh(path));
        assert.ok(performance.now() - started < 1000, `${path} took ${Math.round(performance.now() - started)} ms`);
        assert.equal(answer.status, 503, path);
        assert.deepEqual(answer.json(), UNAVAILABLE);
        assert.equal(answer.headers['content-type'], 'application/json');
      }
      assert.equal((await request(t.origin, '/api/v1/features/')).status, 200, 'an answer already rendered is still served from the cache');
      assert.equal((await request(t.origin, '/readyz')).status, 503);
      assert.equal((await request(t.origin, '/healthz')).status, 200);
      await proxy.restore();
      await until('the server to read again', async () => (await request(t.origin, fresh('/api/v1/features/'))).status === 200);
      const ready = await request(t.origin, '/readyz');
      assert.equal(ready.status, 200);
      assert.equal(ready.json().status, 'ready');
    });

    test('a slow database (a table locked by another session) is a 503, not a hang', async () => {
      await withPgClient(async (c) => {
        await c.query('BEGIN');
        await c.query(`LOCK TABLE ${schema}.features IN ACCESS EXCLUSIVE MODE`);
        try {
          const started = performance.now();
          const answer = await request(t.origin, fresh('/api/v1/features/?page=2'));
          assert.ok(performance.now() - started < 1000);
          assert.equal(answer.status, 503);
          assert.deepEqual(answer.json(), UNAVAILABLE);
        } finally {
          await c.query('ROLLBACK');
        }
      });
      assert.equal((await request(t.origin, fresh('/api/v1/features/?page=2'))).status, 200);
    });
  });

  test('a server started while the database is unreachable answers 503, then serves once it is back', async () => {
    const database = createTestDatabase('postgres');
    await importInto(database.settings, buildTestCatalogue());
    const proxy = await startTcpProxy(PG_ADDRESS);
    await proxy.cut();
    const settings = { database: throughProxy(proxy), databaseSchema: database.settings.databaseSchema, port: '0', logLevel: 'silent', dbTimeoutMs: '300' };
    const server = await startServer(loadConfig(settings, {}));
    try {
      assert.equal((await request(server.address, fresh('/api/v1/features/'))).status, 503);
      await proxy.restore();
      await until('the server to read', async () => (await request(server.address, fresh('/api/v1/features/'))).status === 200);
    } finally {
      await server.close();
      await proxy.close();
      await database.drop();
    }
  });
});
