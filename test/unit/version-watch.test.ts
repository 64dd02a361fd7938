// The version watch (src/version-watch.ts): a read meeting a newer version moves it on at once;
// a poll that was under way meanwhile and answers the older version does not move it back;
// a poll not overtaken is followed, even downwards (a database made again starts from 1).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogueReader } from '../../src/store/store.js';
import type { ServedStore } from '../../src/work/reads.js';
import { getReads } from '../../src/store/api/api-reads.js';
import { linkedPicturesPlan } from '../../src/store/read-plans.js';
import { reportingVersions, watchCatalogueVersion } from '../../src/version-watch.js';

/** A store whose catalogueVersion answers only when the test says, in order. */
function heldPolls() {
  const waiting: ((version: number) => void)[] = [];
  const store = { catalogueVersion: () => new Promise<number>((resolve) => waiting.push(resolve)) } as unknown as CatalogueReader;
  return {
    store,
    /** Answers the oldest poll waiting, then lets its continuation run. */
    answer: async (version: number) => {
      const resolve = waiting.shift();
      assert.ok(resolve, 'no poll is waiting');
      resolve(version);
      await new Promise((done) => setImmediate(done));
    },
  };
}

/** Starts a watch (its first poll at once) with a long interval: the test runs each later poll itself. */
function watch(store: CatalogueReader) {
  const changes: [number, number | null][] = [];
  const w = watchCatalogueVersion(store, 60_000, (version, previous) => changes.push([version, previous]));
  return { w, changes };
}

test('a read meeting a newer version moves the watch on at once; an older one changes nothing', async () => {
  const polls = heldPolls();
  const { w, changes } = watch(polls.store);
  await polls.answer(3);
  assert.equal(w.current(), 3);
  w.met(4);
  assert.equal(w.current(), 4);
  w.met(3);
  w.met(4);
  assert.equal(w.current(), 4);
  assert.deepEqual(changes, [[3, null], [4, 3]]);
  w.stop();
});

test('a read before the first poll answers sets the version; the late first poll does not take it back', async () => {
  const polls = heldPolls();
  const { w, changes } = watch(polls.store);
  assert.equal(w.current(), null);
  w.met(5);
  assert.equal(w.current(), 5);
  await polls.answer(4);
  assert.equal(w.current(), 5, 'a poll overtaken by a read is late, not news');
  assert.deepEqual(changes, [[5, null]]);
  w.stop();
});

test('a poll overtaken by a read is ignored; one not overtaken is followed, even to a lower version (a database made again)', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const polls = heldPolls();
  const { w, changes } = watch(polls.store);
  await polls.answer(7);
  t.mock.timers.tick(60_000);
  w.met(9);
  await polls.answer(8);
  assert.equal(w.current(), 9, 'the poll began before the read met 9');
  t.mock.timers.tick(60_000);
  await polls.answer(1);
  assert.equal(w.current(), 1);
  assert.deepEqual(changes, [[7, null], [9, 7], [1, 9]]);
  w.stop();
});

test('catalogueVersion through the reporting reader is a read like any other', async () => {
  const polls = heldPolls();
  const { w } = watch(polls.store);
  await polls.answer(7);
  const asked = reportingVersions(polls.store, w).catalogueVersion();
  await polls.answer(8);
  assert.equal(await asked, 8);
  assert.equal(w.current(), 8);
  w.stop();
});

test('the reporting reader tells the version of every read that returns one, before its caller sees it', async () => {
  const met: number[] = [];
  const store = {
    ask: async () => ({ version: 12, row: null }),
    databaseIdentity: async () => 'id',
    read: async () => ({ images: 1, thumbnails: 2 }),
    snapshot: () => Promise.reject(new Error('down')),
  } as unknown as ServedStore;
  const reader = reportingVersions(store, { met: (version) => met.push(version) });
  const detail = await reader.ask(getReads.features, 1);
  assert.deepEqual(met, [12], 'told before the await resumed');
  assert.equal(detail.version, 12);
  assert.equal(await reader.databaseIdentity(), 'id');
  assert.deepEqual(await reader.read(linkedPicturesPlan), { images: 1, thumbnails: 2 });
  await assert.rejects(reader.snapshot(), /down/);
  assert.deepEqual(met, [12]);
  assert.equal(reader.ask, reader.ask, 'one wrapper per method');
});
