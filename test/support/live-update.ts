// The live-update proof, for either store: two server processes on one database, a
// bounded request loop against both, an import of a different catalogue in the middle.
// Every answer must be a 200 whose body is entirely the old or entirely the new catalogue.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from './catalogue.js';
import { exitCode, runCli, startCliServer } from './cli.js';
import { request } from './http.js';
import { createTestDatabase, type TestDatabase } from './stores.js';
import { importInto, temporaryDir } from './server.js';

const MARK = ' [new]';

/** Catalogue B: every text the list pages show is marked, and the counts differ from A. */
function newCatalogue(old: Catalogue): Catalogue {
  const dropped = new Set(old.features.slice(-5).map((f) => f.id));
  const keep = <R extends { feature: number }>(r: R) => !dropped.has(r.feature);
  return {
    ...old,
    features: old.features.filter((f) => !dropped.has(f.id)).map((f) => ({ ...f, address: f.address + MARK })),
    images: old.images.filter(keep).map((r) => ({ ...r, title: r.title + MARK })),
    documents: old.documents.filter(keep).map((r) => ({ ...r, title: r.title + MARK })),
    media: old.media.filter(keep).map((r) => ({ ...r, title: r.title + MARK })),
  };
}

type Version = 'old' | 'new';

/** Which catalogue a body comes from; throws when it mixes them. */
function versionOf(body: any, counts: Record<Version, number>): Version {
  const texts: string[] = body.results?.features
    ? body.results.features.map((f: any) => f.properties.address)
    : body.results.map((r: any) => r.title);
  const marked = texts.filter((t) => t.endsWith(MARK)).length;
  const version: Version = marked === 0 ? 'old' : 'new';
  assert.ok(marked === 0 || marked === texts.length, `a page mixes catalogues: ${marked} of ${texts.length} new`);
  assert.equal(body.count, counts[version], `count ${body.count} does not belong to the ${version} catalogue`);
  for (const link of [body.next, body.previous]) {
    if (link !== null) assert.ok(new URL(link).searchParams.get('page') !== '0');
  }
  return version;
}

const PATHS = ['features/', 'features/?page=last', 'features/?page=2&page_size=7', 'images/', 'images/?page=last', 'documents/', 'media/?page_size=3'];

/** The change file from the old catalogue to the new one: every record put as it is new, the dropped ones removed. */
function changeFile(oldCatalogue: Catalogue, fresh: Catalogue): Record<string, unknown> {
  const lists = ['features', 'images', 'documents', 'media'] as const;
  const changes = Object.fromEntries(lists.map((list) => {
    const kept = new Set(fresh[list].map((r) => r.id));
    return [list, { put: fresh[list], remove: oldCatalogue[list].filter((r) => !kept.has(r.id)).map((r) => r.id) }];
  }));
  return { format: 'heritage-changes/1', ...changes };
}

/** `via`: the catalogue replaced by `import`, or changed record by record by `apply`. */
export function liveUpdateSuite(kind: 'sqlite' | 'postgres', via: 'import' | 'apply' = 'import'): void {
  let database: TestDatabase;
  let dir: string;
  const servers: Awaited<ReturnType<typeof startCliServer>>[] = [];
  const oldCatalogue = buildTestCatalogue();
  const fresh = newCatalogue(oldCatalogue);

  before(async () => {
    database = createTestDatabase(kind);
    dir = temporaryDir();
    await importInto(database.settings, oldCatalogue);
    for (let i = 0; i < 2; i++) servers.push(await startCliServer(database.args));
  });
  after(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await exitCode(s.child);
    }
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test(`${kind}: ${via === 'import' ? 'an import' : 'an apply'} under load goes live on both servers; no error, no mixed answer`, async (t) => {
    const countsFor = (collection: string): Record<Version, number> => {
      const count = (c: Catalogue) =>
        collection === 'features' ? c.features.length : (c[collection as 'images'] as { published: boolean }[]).filter((r) => r.published).length;
      return { old: count(oldCatalogue), new: count(fresh) };
    };
    const file = path.join(dir, 'new.json');
    fs.writeFileSync(file, JSON.stringify(via === 'import' ? fresh : changeFile(oldCatalogue, fresh)));
    const seen = { old: 0, new: 0 };
    let importedAt: number | null = null;
    let lastOldAfterImport = 0;
    let requests = 0;

    const loop = async (origin: string, worker: number) => {
      const deadline = Date.now() + 20_000;
      for (let i = worker; Date.now() < deadline; i++) {
        const pathname = PATHS[i % PATHS.length]!;
        const answer = await request(origin, `/api/v1/${pathname}`);
        requests++;
        assert.equal(answer.status, 200, `${pathname}: ${answer.status} ${answer.text}`);
        const version = versionOf(answer.json(), countsFor(pathname.split('/')[0]!));
        seen[version]++;
        if (version === 'old' && importedAt !== null) lastOldAfterImport = Date.now() - importedAt;
        // Done once the new catalogue has been served for a while after the import.
        if (importedAt !== null && Date.now() - importedAt > 2500) return;
      }
      assert.fail('the request loop ran out of time');
    };

    const loops = servers.flatMap((s, n) => [loop(s.origin, n), loop(s.origin, n + 3)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const imported = await runCli([via, file, ...database.args]);
    importedAt = Date.now();
    assert.equal(imported.code, 0, imported.stderr);
    await Promise.all(loops);

    t.diagnostic(`${requests} requests: ${seen.old} old, ${seen.new} new; last old answer ${lastOldAfterImport} ms after the ${via}`);
    assert.ok(seen.old > 0, 'the old catalogue was served before the import');
    assert.ok(seen.new > 0, 'the new catalogue was served after it');
    assert.ok(lastOldAfterImport <= 2000, `old answers ${lastOldAfterImport} ms after the import finished`);
    assert.ok(requests > 50, `only ${requests} requests ran`);
  });
}
