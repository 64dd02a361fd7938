// A class's turns (src/work/gate.ts): at most `running` at once, at most `waiting` in line,
// each waiting at most `waitMs`; past any of them a StoreBusyError at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreBusyError } from '../../src/store/store.js';
import { Gate } from '../../src/work/gate.js';

test('turns up to `running`, then a line up to `waiting`, then refused at once naming the class', async () => {
  const gate = new Gate('downloads', { running: 2, waiting: 1, waitMs: 60_000 });
  const first = await gate.enter();
  await gate.enter();
  const third = gate.enter();
  assert.deepEqual(gate.load(), { running: 2, waiting: 1 });
  await assert.rejects(gate.enter(), (error: unknown) => error instanceof StoreBusyError && error.workClass === 'downloads');
  first();
  first(); // a second call gives nothing back twice
  const release = await third;
  assert.deepEqual(gate.load(), { running: 2, waiting: 0 });
  release();
  assert.deepEqual(gate.load(), { running: 1, waiting: 0 });
});

test('a request that waits longer than waitMs is refused and leaves the line', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const gate = new Gate('builds', { running: 1, waiting: 4, waitMs: 800 });
  const held = await gate.enter();
  const waiting = gate.enter();
  t.mock.timers.tick(799);
  assert.deepEqual(gate.load(), { running: 1, waiting: 1 });
  t.mock.timers.tick(1);
  await assert.rejects(waiting, StoreBusyError);
  assert.deepEqual(gate.load(), { running: 1, waiting: 0 });
  held();
  assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
});

test('run gives its turn back when the work fails', async () => {
  const gate = new Gate('reads', { running: 1, waiting: 0, waitMs: 1000 });
  await assert.rejects(gate.run(async () => { throw new Error('failed'); }), /failed/);
  assert.equal(await gate.run(async () => 7), 7);
  assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
});

test('a waiter whose client has gone (its signal aborted) leaves the line at once; the next one gets the turn', async () => {
  const gate = new Gate('picture uploads', { running: 1, waiting: 2, waitMs: 60_000 });
  const held = await gate.enter();
  const gone = new AbortController();
  const leaving = gate.enter(gone.signal);
  const staying = gate.enter(new AbortController().signal);
  assert.deepEqual(gate.load(), { running: 1, waiting: 2 });
  gone.abort(new Error('closed early'));
  await assert.rejects(leaving, /closed early/);
  assert.deepEqual(gate.load(), { running: 1, waiting: 1 }, 'its place is free');
  held();
  const release = await staying;
  assert.deepEqual(gate.load(), { running: 1, waiting: 0 });
  release();
  assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
  await assert.rejects(gate.enter(gone.signal), /closed early/, 'a signal aborted already takes nothing');
  assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
});
