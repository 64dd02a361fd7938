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

export type Version = 'old' | 'new';

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

/** What a run of importUnderLoad saw. */
export interface SwitchSeen {
  requests: number;
  seen: Record<Version, number>;
  /** Per origin: how long after the import ended its last old answer came (0: none after it). */
  lastOldAfterImport: Map<string, number>;
}

/**
 * Two request loops per origin, from before an import until every origin has served the
 * new catalogue for 2.5 s after it; every answer a 200 of one catalogue, never a mix.
 * `runImport` writes `fresh` and resolves once it has committed (the moment measured from).
 */
export async function importUnderLoad(origins: string[], oldCatalogue: Catalogue, fresh: Catalogue, runImport: () => Promise<void>): Promise<SwitchSeen> {
  const countsFor = (collection: string): Record<Version, number> => {
    const count = (c: Catalogue) =>
      collection === 'features' ? c.features.length : (c[collection as 'images'] as { published: boolean }[]).filter((r) => r.published).length;
    return { old: count(oldCatalogue), new: count(fresh) };
  };
  const result: SwitchSeen = { requests: 0, seen: { old: 0, new: 0 }, lastOldAfterImport: new Map(origins.map((o) => [o, 0])) };
  let importedAt: number | null = null;

  const loop = async (origin: string, worker: number) => {
    const deadline = Date.now() + 30_000;
    for (let i = worker; Date.now() < deadline; i++) {
      const pathname = PATHS[i % PATHS.length]!;
      const answer = await request(origin, `/api/v1/${pathname}`);
      result.requests++;
      assert.equal(answer.status, 200, `${origin} ${pathname}: ${answer.status} ${answer.text}`);
      const version = versionOf(answer.json(), countsFor(pathname.split('/')[0]!));
      result.seen[version]++;
      if (version === 'old' && importedAt !== null) result.lastOldAfterImport.set(origin, Date.now() - importedAt);
      // Done once the new catalogue has been served for a while after the import.
      if (importedAt !== null && Date.now() - importedAt > 2500) return;
    }
    assert.fail('the request loop ran out of time');
  };

  const loops = origins.flatMap((origin, n) => [loop(origin, n), loop(origin, n + 3)]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await runImport();
  importedAt = Date.now();
  await Promise.all(loops);
  return result;
}

/** The change file from the old catalogue to the new one: every record put as it is new, the dropped ones removed. */
function changeFile(oldCatalogue: Catalogue, fresh: Catalogue): Record<string, unknown> {
  const lists = ['features', 'images', 'documents', 'media'] as const;
  const changes = Object.fromEntries(lists.map((list) => {
    const kept = new Set(fresh[list].map((r) => r.id));
    return [list, { put: fresh[list], remove: oldCatalogue[list].filter((r) => !kept.has(r.id)).map((r) => r.id) }];
  }));
  return { format: 'heritage-changes/1', ...changes };
}

/** Catalogue A as imported first, and B, written to a file for `import` (or as the change from A to B, for `apply`). */
export function liveCatalogues(dir: string, via: 'import' | 'apply' = 'import'): { oldCatalogue: Catalogue; fresh: Catalogue; file: string } {
  const oldCatalogue = buildTestCatalogue();
  const fresh = newCatalogue(oldCatalogue);
  const file = path.join(dir, 'new.json');
  fs.writeFileSync(file, JSON.stringify(via === 'import' ? fresh : changeFile(oldCatalogue, fresh)));
  return { oldCatalogue, fresh, file };
}

/** `via`: the catalogue replaced by `import`, or changed record by record by `apply`. */
export function liveUpdateSuite(kind: 'sqlite' | 'postgres', via: 'import' | 'apply' = 'import'): void {
  let database: TestDatabase;
  let dir: string;
  let catalogues: ReturnType<typeof liveCatalogues>;
  const servers: Awaited<ReturnType<typeof startCliServer>>[] = [];

  before(async () => {
    database = createTestDatabase(kind);
    dir = temporaryDir();
    catalogues = liveCatalogues(dir, via);
    await importInto(database.settings, catalogues.oldCatalogue);
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
    const { oldCatalogue, fresh, file } = catalogues;
    const { requests, seen, lastOldAfterImport } = await importUnderLoad(servers.map((s) => s.origin), oldCatalogue, fresh, async () => {
      const imported = await runCli([via, file, ...database.args]);
      assert.equal(imported.code, 0, imported.stderr);
    });
    const lastOld = Math.max(...lastOldAfterImport.values());
    t.diagnostic(`${requests} requests: ${seen.old} old, ${seen.new} new; last old answer ${lastOld} ms after the ${via}`);
    assert.ok(seen.old > 0, 'the old catalogue was served before the import');
    assert.ok(seen.new > 0, 'the new catalogue was served after it');
    assert.ok(lastOld <= 2000, `old answers ${lastOld} ms after the import finished`);
    assert.ok(requests > 50, `only ${requests} requests ran`);
  });
}
