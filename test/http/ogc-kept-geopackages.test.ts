// Each collection's whole GeoPackage kept per catalogue version (http/ogc/kept-geopackages.ts),
// on the tests' store: the file read back with better-sqlite3 is the catalogue, row for row
// the same as a GeoPackage built for its request; after an import or an apply the download is
// the new catalogue (never the old file), and old files go; concurrent requests share one
// build; builds ahead of requests at a new version; two processes sharing the folder; a failed
// build leaves nothing; a folder anyone may write to is not used; another database (or the
// same one made again) with the same version number never gets this one's file. The GeoPackage
// as GDAL reads it is checked by ogc-downloads.test.ts and ogc-gdal.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import type { Catalogue } from '../../src/catalogue/format.js';
import { loadConfig } from '../../src/config.js';
import { keptGeoPackages, type GeoPackageBuilder, type KeptFile, type WarningLog } from '../../src/http/ogc/kept-geopackages.js';
import { openStore } from '../../src/store/open.js';
import type { CatalogueStore } from '../../src/store/store.js';
import { guardStore, type GuardedStore } from '../../src/work/guarded-store.js';
import { buildGeoPackage, geoPackageBuilder } from '../../src/http/ogc/worker-jobs.js';
import { WORK_REGISTRY } from '../../src/reads.js';
import { applyTo } from '../support/apply.js';
import { heldDownload } from '../support/http.js';
import { buildTestCatalogue, largeCatalogue } from '../support/catalogue.js';
import { startTestApp, IN_PROCESS_ORIGIN, type TestApp } from '../support/in-process.js';
import { TEST_DEFAULTS, importInto, startTestServer, temporaryDir } from '../support/server.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../support/stores.js';

const COLLECTIONS = ['features', 'images', 'documents', 'media'] as const;
const BASE = 'http://heritage.test';

/** Each collection's ids as the catalogue says (published attachments only), in id order. */
function expectedIds(catalogue: Catalogue, collection: (typeof COLLECTIONS)[number]): number[] {
  const records = collection === 'features' ? catalogue.features : catalogue[collection].filter((r) => r.published);
  return records.map((r) => r.id).sort((a, b) => a - b);
}

/** A catalogue whose every address says `mark`, so that which catalogue a file is of shows. */
function marked(mark: string): Catalogue {
  const catalogue = buildTestCatalogue();
  for (const f of catalogue.features) f.address = `${mark} ${f.id}`;
  return catalogue;
}

interface GeoPackageRead {
  rows: Record<string, unknown>[];
  contents: Record<string, unknown>;
}

/** A GeoPackage's feature table in fid order and its gpkg_contents row, read by SQLite itself. */
function readGeoPackage(bytes: Buffer, table: string): GeoPackageRead {
  const dir = temporaryDir();
  try {
    const file = path.join(dir, 'read.gpkg');
    fs.writeFileSync(file, bytes);
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('application_id', { simple: true }), 1196444487, 'a GeoPackage (GPKG)');
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      const rows = db.prepare(`SELECT * FROM "${table}" ORDER BY fid`).all() as Record<string, unknown>[];
      const contents = db.prepare('SELECT table_name, data_type, identifier, min_x, min_y, max_x, max_y, srs_id FROM gpkg_contents').get() as Record<string, unknown>;
      return { rows, contents };
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What is in the folder: kept files (by name) and temporary ones. */
function folder(dir: string): { kept: string[]; temporary: string[] } {
  const names = fs.readdirSync(dir);
  return { kept: names.filter((n) => n.endsWith('.gpkg')).sort(), temporary: names.filter((n) => !n.endsWith('.gpkg')) };
}

const versionOf = (name: string) => Number(/-(\d+)\.gpkg$/.exec(name)?.[1]);

/** A promise each caller waits on until `count` callers have arrived. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived === count) open();
    return opened;
  };
}

/**
 * A store whose GeoPackage builds are counted, made to fail while `failing` says so (the
 * file written, then the build refused: nothing of it may be left), and each begun only
 * once `arrive` lets it (when given).
 */
function countedStore(store: CatalogueStore, arrive?: () => Promise<void>): { store: GeoPackageBuilder; streams: () => number; failing: { now: boolean } } {
  let streams = 0;
  const failing = { now: false };
  const guarded = guardedOf(store);
  const counted: GeoPackageBuilder = {
    databaseIdentity: () => guarded.databaseIdentity(),
    buildGeoPackage: async (call) => {
      streams += 1;
      await arrive?.();
      const built = await buildGeoPackage(guarded, call);
      if (failing.now) throw new Error('the test cut the build');
      return built;
    },
  };
  return { store: counted, streams: () => streams, failing };
}

/** Each test store's guarded twin, whose worker threads build the files. */
const guarded = new WeakMap<CatalogueStore, GuardedStore>();
const guardedOf = (store: CatalogueStore) => guarded.get(store)!;

function warnings(): WarningLog & { said: string[] } {
  const said: string[] = [];
  const warn = (...args: unknown[]) => void said.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a, (_k, v: unknown) => (v instanceof Error ? v.message : v)))).join(' '));
  return { warn: warn as WarningLog['warn'], said };
}

async function openTestStore(database: TestDatabase): Promise<CatalogueStore> {
  // The tests' deadline (TEST_DEFAULTS), not the served 800 ms: on a loaded machine a second build waits for the first longer than 5 × 800 ms.
  const config = loadConfig({ ...TEST_DEFAULTS, ...database.settings }, {});
  const store = await openStore(config, { serving: true });
  guarded.set(store, guardStore(store, config, WORK_REGISTRY));
  return store;
}

/** A fresh database holding `catalogue`, a store open on it and an empty folder for kept files, for `work`; all removed after. */
async function withStoreAndFolder(catalogue: Catalogue, work: (made: { store: CatalogueStore; database: TestDatabase; dir: string }) => Promise<void>): Promise<void> {
  const database = createTestDatabase();
  await importInto(database.settings, catalogue);
  const store = await openTestStore(database);
  const dir = temporaryDir();
  try {
    await work({ store, database, dir });
  } finally {
    await store.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `use` given a new folder for the kept files; once it is done, `check` on the files it
 * holds, and no temporary file may be left; the folder is removed last, whatever happens.
 */
async function inKeptFolder(use: (dir: string) => Promise<void>, check: (kept: string[]) => void): Promise<void> {
  const dir = temporaryDir();
  try {
    await use(dir);
    const { kept, temporary } = folder(dir);
    check(kept);
    assert.deepEqual(temporary, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('each whole GeoPackage, kept: the catalogue, row for row what a GeoPackage built for its request holds; headers as before', async () => {
  await inKeptFolder(async (dir) => {
    const app = await startTestApp({ settings: { downloadCacheDir: dir } });
    try {
      const catalogue = buildTestCatalogue();
      for (const collection of COLLECTIONS) {
        const answer = await app.request(`/ogc/collections/${collection}/items?f=gpkg`);
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['content-type'], 'application/geopackage+sqlite3');
        assert.equal(answer.headers['content-disposition'], `attachment; filename="${collection}.gpkg"`);
        assert.match(String(answer.headers.etag), /^"d1-[\w-]{16}"$/);
        assert.equal(Number(answer.headers['content-length']), answer.bytes.length);
        const kept = readGeoPackage(answer.bytes, collection);
        assert.deepEqual(kept.rows.map((r) => r.fid), expectedIds(catalogue, collection), `${collection}: every item, once`);
        if (collection === 'features') {
          assert.deepEqual(kept.rows.map((r) => r.address), [...catalogue.features].sort((a, b) => a.id - b.id).map((f) => f.address));
          assert.deepEqual(kept.rows.map((r) => r.api_url), kept.rows.map((r) => `${IN_PROCESS_ORIGIN}/api/v1/features/${String(r.fid)}/`));
        }
        // sortby: not the whole collection's file, so built for this request, as before.
        const built = await app.request(`/ogc/collections/${collection}/items?f=gpkg&sortby=id`);
        assert.equal(built.headers['content-length'], undefined, 'built for its request: sent without a length, as its HEAD is');
        assert.deepEqual(kept, readGeoPackage(built.bytes, collection), `${collection}: the kept file holds what a request's own build holds`);
        const again = await app.request(`/ogc/collections/${collection}/items?f=gpkg`);
        assert.ok(again.bytes.equals(answer.bytes), `${collection}: the same file again`);
        const notModified = await app.request(`/ogc/collections/${collection}/items?f=gpkg`, { headers: { 'if-none-match': String(answer.headers.etag) } });
        assert.equal(notModified.status, 304);
      }
    } finally {
      await app.close();
    }
  }, (kept) => assert.equal(kept.length, COLLECTIONS.length, `one file per collection: ${kept.join(', ')}`));
});

test('after an import, then an apply, the download is the new catalogue at once (never the old file), and the old files go', async () => {
  await inKeptFolder(async (dir) => {
    const database = createTestDatabase();
    const app: TestApp = await startTestApp({ database, catalogue: marked('Old'), settings: { downloadCacheDir: dir } });
    const addresses = async () => {
      const answer = await app.request('/ogc/collections/features/items?f=gpkg');
      assert.equal(answer.status, 200);
      return { etag: String(answer.headers.etag), addresses: readGeoPackage(answer.bytes, 'features').rows.map((r) => String(r.address)) };
    };
    try {
      const before = await addresses();
      assert.ok(before.addresses.every((a) => a.startsWith('Old ')));
      await importInto(database.settings, marked('New'));
      // No wait for the server's poll: the request reads the version itself.
      const imported = await addresses();
      assert.ok(imported.addresses.every((a) => a.startsWith('New ')), 'the import is downloaded');
      assert.notEqual(imported.etag, before.etag);
      const feature = marked('New').features.find((f) => f.id === 1)!;
      const outcome = await applyTo(database.settings, { format: 'heritage-changes/1', features: { put: [{ ...feature, address: 'Applied 1' }] } });
      assert.ok(outcome.ok);
      const applied = await addresses();
      assert.deepEqual(applied.addresses, imported.addresses.map((a) => (a === 'New 1' ? 'Applied 1' : a)), 'the apply is downloaded');
      assert.notEqual(applied.etag, imported.etag);
    } finally {
      await app.close();
    }
  }, (kept) => {
    // The server's poll may have built the other collections' files ahead of requests too: any file is the last version's.
    assert.ok(kept.some((name) => name.endsWith('-features-3.gpkg')), `the downloaded file is kept: ${kept.join(', ')}`);
    assert.deepEqual([...new Set(kept.map(versionOf))], [3], `only the last version's files: ${kept.join(', ')}`);
  });
});

test('a kept file being sent when an import lands is sent whole, all of the old catalogue, though its file is removed meanwhile', async () => {
  const dir = temporaryDir();
  const old = largeCatalogue();
  const database = createTestDatabase();
  const server = await startTestServer({ database, catalogue: old, settings: { downloadCacheDir: dir } });
  try {
    const url = `${server.origin}/ogc/collections/features/items?f=gpkg`;
    // Read one chunk, then stop reading: the server is held back by the socket.
    const { response, finish } = await heldDownload(url);
    assert.equal(response.statusCode, 200);
    const oldFiles = folder(dir).kept;
    await importInto(database.settings, marked('Renamed'));
    const renewed = await server.request('/ogc/collections/features/items?f=gpkg');
    assert.ok(readGeoPackage(renewed.bytes, 'features').rows.every((r) => String(r.address).startsWith('Renamed ')));
    assert.ok(oldFiles.every((name) => !folder(dir).kept.includes(name)), 'the old version\'s file is gone');
    const body = await finish();
    assert.equal(body.length, Number(response.headers['content-length']));
    const rows = readGeoPackage(body, 'features').rows;
    assert.deepEqual(rows.map((r) => r.address), [...old.features].sort((a, b) => a.id - b.id).map((f) => f.address));
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('concurrent requests during the first build share it: one snapshot read, the same whole file for all', async () => {
  await withStoreAndFolder(buildTestCatalogue(), async ({ store, dir }) => {
    const counted = countedStore(store);
    const kept = keptGeoPackages(counted.store, { dir, baseUrl: null, log: warnings() })!;
    const version = await store.catalogueVersion();
    const files = await Promise.all(Array.from({ length: 6 }, () => kept.open('features', BASE, version)));
    assert.equal(counted.streams(), 1, 'one build');
    const bodies = await Promise.all(files.map((f) => bytesOf(f!.body)));
    assert.ok(bodies.every((b) => b.equals(bodies[0]!)), 'the same bytes for every request');
    assert.deepEqual(files.map((f) => f!.version), files.map(() => version));
    assert.deepEqual(readGeoPackage(bodies[0]!, 'features').rows.map((r) => r.fid), expectedIds(buildTestCatalogue(), 'features'));
    // Another process on the same folder finds the file: no build of its own.
    const other = countedStore(store);
    const second = keptGeoPackages(other.store, { dir, baseUrl: null, log: warnings() })!;
    const found = await second.open('features', BASE, version);
    assert.ok((await bytesOf(found!.body)).equals(bodies[0]!));
    assert.equal(other.streams(), 0);
    await Promise.all([kept.close(), second.close()]);
    assert.deepEqual(folder(dir).temporary, []);
  });
});

test('two processes building the same file at once: both answers whole, one file left, no temporary file', async () => {
  await withStoreAndFolder(buildTestCatalogue(), async ({ store, dir }) => {
    // Neither build goes on before both have their snapshot: both looked for the file and did not find it.
    const both = barrier(2);
    const [a, b] = [countedStore(store, both), countedStore(store, both)];
    const [first, second] = [a, b].map((s) => keptGeoPackages(s.store, { dir, baseUrl: null, log: warnings() })!);
    const version = await store.catalogueVersion();
    const files = await Promise.all([first!.open('images', BASE, version), second!.open('images', BASE, version)]);
    assert.deepEqual([a.streams(), b.streams()], [1, 1], 'each built (neither saw the other\'s file)');
    const [one, two] = await Promise.all(files.map((f) => bytesOf(f!.body)));
    // Whole files of the same rows (gpkg_contents' last_change may differ by the build's time).
    assert.deepEqual(readGeoPackage(one!, 'images'), readGeoPackage(two!, 'images'));
    assert.deepEqual(readGeoPackage(one!, 'images').rows.map((r) => r.fid), expectedIds(buildTestCatalogue(), 'images'));
    await Promise.all([first!.close(), second!.close()]);
    assert.deepEqual(folder(dir), { kept: folder(dir).kept, temporary: [] });
    assert.equal(folder(dir).kept.length, 1);
  });
});

test('with BASE_URL, a new version\'s files are built ahead of any request; the old ones go', async () => {
  await withStoreAndFolder(marked('Old'), async ({ store, database, dir }) => {
    const counted = countedStore(store);
    const kept = keptGeoPackages(counted.store, { dir, baseUrl: BASE, log: warnings() })!;
    const first = await store.catalogueVersion();
    await kept.sawVersion(first);
    assert.equal(counted.streams(), COLLECTIONS.length, 'each collection built once');
    assert.deepEqual(folder(dir).kept.map(versionOf), COLLECTIONS.map(() => first));
    const file = await kept.open('features', BASE, first);
    assert.equal(counted.streams(), COLLECTIONS.length, 'a request after it builds nothing');
    assert.ok(readGeoPackage(await bytesOf(file!.body), 'features').rows.every((r) => String(r.address).startsWith('Old ')));
    await importInto(database.settings, marked('New'));
    const next = await store.catalogueVersion();
    await kept.sawVersion(next);
    assert.equal(counted.streams(), 2 * COLLECTIONS.length);
    const { kept: names, temporary } = folder(dir);
    assert.deepEqual(names.map(versionOf), COLLECTIONS.map(() => next), 'only the new version\'s files');
    assert.deepEqual(temporary, []);
    const renewed = await kept.open('features', BASE, next);
    assert.ok(readGeoPackage(await bytesOf(renewed!.body), 'features').rows.every((r) => String(r.address).startsWith('New ')));
    await kept.close();
  });
});

test('a build that fails leaves no file (the request then builds its own); a folder removed is made again; a folder anyone may write to is not used', async () => {
  const database = createTestDatabase();
  await importInto(database.settings, buildTestCatalogue());
  const store = await openTestStore(database);
  const dir = temporaryDir();
  const open = path.join(temporaryDir(), 'open');
  try {
    const counted = countedStore(store);
    const log = warnings();
    const kept = keptGeoPackages(counted.store, { dir, baseUrl: null, log })!;
    const version = await store.catalogueVersion();
    counted.failing.now = true;
    assert.equal(await kept.open('features', BASE, version), null);
    assert.match(log.said.join('\n'), /the test cut the build/);
    assert.deepEqual(folder(dir), { kept: [], temporary: [] });
    counted.failing.now = false;
    const file: KeptFile | null = await kept.open('features', BASE, version);
    assert.ok(file !== null, 'the next request builds it');
    file.body.destroy();
    // A cleaner of temporary folders removes the folder: it is made again.
    fs.rmSync(dir, { recursive: true });
    const again = await kept.open('features', BASE, version);
    assert.ok(again !== null);
    again.body.destroy();
    assert.equal(folder(dir).kept.length, 1);
    await kept.close();

    fs.mkdirSync(open, { mode: 0o777 });
    fs.chmodSync(open, 0o777);
    const shared = warnings();
    const refused = keptGeoPackages(geoPackageBuilder(guardedOf(store)), { dir: open, baseUrl: null, log: shared })!;
    assert.equal(await refused.open('features', BASE, version), null);
    assert.match(shared.said.join('\n'), /writable by every user/);
    assert.deepEqual(fs.readdirSync(open), []);
    await refused.close();
  } finally {
    await store.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.dirname(open), { recursive: true, force: true });
  }
});

test('the folder stays bounded: files for the four base URLs last sent, another database\'s files unused for a day removed', async () => {
  await withStoreAndFolder(buildTestCatalogue(), async ({ store, dir }) => {
    const kept = keptGeoPackages(geoPackageBuilder(guardedOf(store)), { dir, baseUrl: null, log: warnings() })!;
    const version = await store.catalogueVersion();
    const send = async (base: string) => (await kept.open('media', base, version))!.body.destroy();
    // Another database's file, last used two days ago, and one used an hour ago.
    const stale = path.join(dir, `${'a'.repeat(16)}-${'b'.repeat(16)}-media-7.gpkg`);
    const recent = path.join(dir, `${'c'.repeat(16)}-${'b'.repeat(16)}-media-7.gpkg`);
    for (const [file, hoursAgo] of [[stale, 48], [recent, 1]] as const) {
      fs.writeFileSync(file, 'x');
      const then = new Date(Date.now() - hoursAgo * 3600 * 1000);
      fs.utimesSync(file, then, then);
    }
    for (const port of [1, 2, 3, 4]) await send(`http://127.0.0.1:${port}`);
    await send('http://127.0.0.1:1'); // sent again: now the most recent
    await send('http://127.0.0.1:5');
    const names = folder(dir).kept;
    assert.ok(!names.includes(path.basename(stale)) && names.includes(path.basename(recent)));
    const ours = names.filter((n) => n !== path.basename(recent));
    assert.equal(ours.length, 4, `four base URLs' files: ${ours.join(', ')}`);
    // The base URL whose file went (port 2's, the least recently sent) is built again when asked.
    const reopened = await kept.open('media', 'http://127.0.0.1:2', version);
    assert.ok(reopened !== null);
    reopened.body.destroy();
    await kept.close();
    assert.deepEqual(folder(dir).temporary, []);
  });
});

test('another database at the same version, or this one made again, never gets the file kept for the first', async () => {
  const dir = temporaryDir();
  const [one, two] = [createTestDatabase(), createTestDatabase()];
  const addressOf = async (database: TestDatabase) => {
    const store = await openTestStore(database);
    try {
      const kept = keptGeoPackages(geoPackageBuilder(guardedOf(store)), { dir, baseUrl: null, log: warnings() })!;
      const version = await store.catalogueVersion();
      const file = await kept.open('features', BASE, version);
      const address = String(readGeoPackage(await bytesOf(file!.body), 'features').rows[0]!.address);
      await kept.close();
      return { version, address };
    } finally {
      await store.close();
    }
  };
  try {
    await importInto(one.settings, marked('One'));
    await importInto(two.settings, marked('Two'));
    assert.deepEqual(await addressOf(one), { version: 1, address: 'One 1' });
    assert.deepEqual(await addressOf(two), { version: 1, address: 'Two 1' });
    await one.drop();
    // Made again under the same name (SQLite: the same path; PostgreSQL: the same schema).
    if (testStoreKind() === 'sqlite') fs.mkdirSync(path.dirname(one.settings.database!), { recursive: true });
    await importInto(one.settings, marked('Again'));
    assert.deepEqual(await addressOf(one), { version: 1, address: 'Again 1' });
  } finally {
    await one.drop();
    await two.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
