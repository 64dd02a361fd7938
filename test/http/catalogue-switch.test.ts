// Issue 33, defect 13: after an apply, a read the answer cache misses already meets the new
// catalogue; from then on no cached answer may show the old one, in that process, although
// the version poll (VERSION_POLL_MS at its longest here) has not run. Each round applies a
// change, checks that the cached answers still show the old version (nothing has met the new
// one yet), makes one uncached read of another kind, and checks every cached answer again,
// through the fast path (a plain request) and through Fastify (one with an Origin).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Feature } from '../../src/catalogue/format.js';
import { applyTo } from '../support/apply.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import type { Answer } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';
import { tileOf } from '../support/tile-math.js';

const catalogue = buildTestCatalogue();
const first = catalogue.features[0]!;

/** Answers kept in the cache: a list page, a count (a page of one), an OGC page with numberMatched. */
const CACHED = ['/api/v1/features/', '/api/v1/images/?page_size=1', '/ogc/collections/features/items?limit=3'];
const THROUGH_FASTIFY = { origin: 'http://elsewhere.test' };

/** Each round's one read the cache has never seen, each reaching the store another way. */
const feature = (i: number): Feature => catalogue.features[i]!;
const tile = tileOf(feature(8).geometry.coordinates[0]![0]![0]!, 16);
const TRIGGERS: [string, string, number][] = [
  ['an /api/ record that is not there (404)', '/api/v1/features/999999/', 404],
  ['a download', '/ogc/collections/features/items?f=csv', 200],
  ['an /api/ record', `/api/v1/features/${feature(5).id}/`, 200],
  ['an OGC item', `/ogc/collections/features/items/${feature(6).id}`, 200],
  ['a vector tile', `/tiles/features/${tile.z}/${tile.x}/${tile.y}.mvt`, 200],
  ['the map\'s matches', '/map/matches.json?postcode=E1%206TD&bbox=-180,-90,180,90', 200],
];

/** The catalogue version an answer was read from, by its ETag ("<v>-…", a download's "d<v>-…"). */
function versionOf(answer: Answer, what: string): number {
  const match = /^"d?(\d+)-/.exec(answer.headers.etag ?? '');
  assert.ok(match, `${what}: no versioned ETag (${answer.status} ${answer.headers.etag})`);
  return Number(match[1]);
}

let database: TestDatabase;
let server: TestServer;
before(async () => {
  database = createTestDatabase();
  server = await startTestServer({ catalogue, database, settings: { versionPollMs: '60000' } });
});
after(() => server.close());

/** Every cached answer, both ways, with its version; the list's first address tells its catalogue. */
async function cachedVersions(): Promise<{ what: string; version: number; address: string | null }[]> {
  const seen = [];
  for (const path of CACHED) {
    for (const [way, headers] of [['fast path', {}], ['Fastify', THROUGH_FASTIFY]] as const) {
      const answer = await server.request(path, { headers });
      const what = `${path} (${way})`;
      assert.equal(answer.status, 200, what);
      const address = path === CACHED[0] ? (answer.json().results.features[0].properties.address as string) : null;
      seen.push({ what, version: versionOf(answer, what), address });
    }
  }
  return seen;
}

test('once a read meets a newer catalogue, no cached answer shows the older one (the poll does not run meanwhile)', async () => {
  for (const [round, [kind, path, status]] of TRIGGERS.entries()) {
    // Cached at the version of the last round (asked twice: the second is a cache hit).
    await cachedVersions();
    const before = await cachedVersions();
    const old = before[0]!.version;
    for (const { what, version } of before) assert.equal(version, old, `round ${round}: ${what} before the apply`);
    const address = `Applied ${round}`;
    const outcome = await applyTo(database.settings, { format: 'heritage-changes/1', features: { put: [{ ...first, address }] } });
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    // Nothing has met the new catalogue yet: the cache still answers from the old one.
    for (const { what, version } of await cachedVersions()) assert.equal(version, old, `round ${round}: ${what} right after the apply`);
    const met = await server.request(path);
    assert.equal(met.status, status, `${kind}: ${path}`);
    if (status === 200) assert.equal(versionOf(met, kind), old + 1, `${kind} read the new catalogue`);
    for (const { what, version, address: shown } of await cachedVersions()) {
      assert.equal(version, old + 1, `round ${round}: ${what} after ${kind} met the new catalogue`);
      if (shown !== null) assert.equal(shown, address, what);
    }
  }
});
