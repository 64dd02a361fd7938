// kill -9 of `apply` at random points (issue 48: the streets' labels the map and the record
// pages read are kept in the store, and an apply places again those its change reaches, in
// its own transaction). After each kill the database holds the catalogue before the change
// or after it, whole: its export, the map's street labels, the changed street's buildings
// and the version each equal one of two databases made apart (one imported, one imported
// and then applied to, uninterrupted). The same apply then completes. The kill comes a
// seeded random delay after the command starts (APPLY_KILL_SEED=N replays it), from 0.3 to
// 1.2 times what a whole apply took here (most of the first third is node starting); on
// either store (PostgreSQL: test/postgres/ twin).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Catalogue, Feature } from '../src/catalogue/format.js';
import { generateDemoCatalogue } from '../src/demo/demo.js';
import { CHANGE_FORMAT, nudged, storedCatalogue, storedVersion } from './support/apply.js';
import { spawnCli } from './support/cli.js';
import { ensureCliBuilt } from './support/cli-entry.js';
import { appOnDatabase } from './support/in-process.js';
import { seeded } from './support/picture-desk.js';
import { importInto } from './support/server.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from './support/stores.js';
import { temporaryDir } from './support/temporary.js';

const KILLS = 12;
const SEED = Number(process.env.APPLY_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));

const old = generateDemoCatalogue({ scale: 0.25, seed: 11 });
const onStreets = old.features.filter((f): f is Feature & { street: string } => f.street !== null && f.street.trim() !== '');
const [moved, renamed, removed] = [onStreets[3]!, onStreets[40]!, onStreets[80]!];
const otherStreet = onStreets.find((f) => f.street !== renamed.street)!.street;
const added: Feature = { ...structuredClone(moved), id: Math.max(...old.features.map((f) => f.id)) + 1, geometry: nudged(moved, 0.0004) };
/** Buildings moved, put on another street, removed and added: the labels of several streets are placed again. */
const CHANGE = {
  format: CHANGE_FORMAT,
  features: { put: [{ ...moved, geometry: nudged(moved, 0.0003) }, { ...renamed, street: otherStreet }, added], remove: [removed.id] },
};

/** What a database serves and holds that an apply changes. */
interface Observed {
  version: number;
  catalogue: string;
  answers: string[];
}

const PATHS = ['/map/streets.json', `/api/v1/features/?street=${encodeURIComponent(otherStreet)}&page_size=500`, `/api/v1/features/?street=${encodeURIComponent(renamed.street)}&page_size=500`];

async function observe(database: TestDatabase): Promise<Observed> {
  const version = await storedVersion(database.settings);
  const catalogue = JSON.stringify(await storedCatalogue(database.settings));
  // The app's close() drops its database: this one is dropped by its owner.
  const app = await appOnDatabase({ ...database, drop: async () => undefined });
  try {
    const answers: string[] = [];
    for (const url of PATHS) {
      const answer = await app.request(url);
      assert.equal(answer.status, 200, url);
      answers.push(answer.text);
    }
    return { version, catalogue, answers };
  } finally {
    await app.close();
  }
}

async function imported(catalogue: Catalogue): Promise<TestDatabase> {
  const database = createTestDatabase();
  await importInto(database.settings, catalogue);
  return database;
}

/** `apply` as users run it, killed `afterMs` after it starts (or not, if it ends first); whether it ended by itself. */
function applyKilledAfter(database: TestDatabase, file: string, afterMs: number): Promise<{ ended: boolean; ms: number }> {
  const started = performance.now();
  const child = spawnCli(['apply', file, ...database.args]);
  child.stdout?.resume();
  child.stderr?.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === null) assert.equal(code, 0, 'an apply not killed succeeds');
      resolve({ ended: signal === null, ms: performance.now() - started });
    });
  });
}

describe(`${testStoreKind()}: kill -9 during apply (seed ${SEED})`, () => {
  const dir = temporaryDir();
  const file = path.join(dir, 'change.json');
  const databases: TestDatabase[] = [];
  let beforeChange: Observed;
  let afterChange: Observed;
  let wholeMs = 0;

  before(async () => {
    // Built before a whole apply is timed: the kills' delays are drawn up to its time.
    ensureCliBuilt();
    fs.writeFileSync(file, JSON.stringify(CHANGE));
    const base = await imported(old);
    databases.push(base);
    beforeChange = await observe(base);
    const applied = await imported(old);
    databases.push(applied);
    const whole = await applyKilledAfter(applied, file, 60_000);
    assert.ok(whole.ended);
    wholeMs = whole.ms;
    afterChange = await observe(applied);
  });
  after(async () => {
    for (const database of databases) await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the change moves what is observed: the street labels, both streets\u2019 buildings, the version', () => {
    assert.equal(afterChange.version, beforeChange.version + 1);
    afterChange.answers.forEach((answer, i) => assert.notEqual(answer, beforeChange.answers[i], PATHS[i]));
    assert.notEqual(afterChange.catalogue, beforeChange.catalogue);
  });

  test(`${KILLS} kills: each leaves the catalogue before or after, whole; the apply then completes`, async (t) => {
    const random = seeded(SEED);
    const outcomes = { before: 0, after: 0 };
    for (let kill = 0; kill < KILLS; kill++) {
      const database = await imported(old);
      databases.push(database);
      const delay = Math.round((0.3 + 0.9 * random()) * wholeMs);
      const { ended } = await applyKilledAfter(database, file, delay);
      const seen = await observe(database);
      const which = seen.version === afterChange.version ? 'after' : 'before';
      outcomes[which]++;
      assert.deepEqual(seen, which === 'after' ? afterChange : beforeChange, `kill ${kill} at ${delay} ms (seed ${SEED}): the ${which} state, whole`);
      if (ended) assert.equal(which, 'after', 'an apply that ended by itself has taken effect');
      if (which === 'before') {
        assert.ok((await applyKilledAfter(database, file, 60_000)).ended);
        assert.deepEqual(await observe(database), afterChange, `kill ${kill}: applied again after the kill`);
      }
    }
    t.diagnostic(`seed ${SEED}: ${outcomes.before} kills left the catalogue before, ${outcomes.after} after; a whole apply ${Math.round(wholeMs)} ms`);
  });
});
