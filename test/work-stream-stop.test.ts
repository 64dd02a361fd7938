// A download made in a worker thread (src/work/) whose client goes away while the worker is
// still making the next chunk: the "stop" that arrives then must end the call (the worker
// closes its snapshot and is free again), not be dropped, which left the worker waiting for
// a word that never came, its snapshot held for ever.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { WHOLE_COLLECTION } from '../src/store/ogc/ogc-plans.js';
import { ALL_OF_EACH_ITEM } from '../src/render/ogc/items.js';
import { WorkerLane } from '../src/work/pool.js';
import { WORK_REGISTRY } from '../src/reads.js';
import { downloadJob } from '../src/http/ogc/worker-jobs.js';
import { largeCatalogue } from './support/catalogue.js';
import { importInto } from './support/server.js';
import { createTestDatabase, type TestDatabase } from './support/stores.js';

let database: TestDatabase;
let lane: WorkerLane;
before(async () => {
  database = createTestDatabase();
  // Several batches of 100 rows: the worker turns the event loop between them, where the stop arrives.
  await importInto(database.settings, largeCatalogue({ count: 600, positions: 41 }));
  const config = loadConfig(database.settings, {});
  lane = new WorkerLane({ database: config.database, databaseSchema: config.databaseSchema, poolSize: 2, dbTimeoutMs: 60_000, registry: WORK_REGISTRY.module }, WORK_REGISTRY.errors);
});
after(async () => {
  await lane.close();
  await database.drop();
});

test('a stop sent while the next chunk is being made ends the call', { timeout: 30_000 }, async () => {
  const parts: unknown[] = [];
  const call = { kind: 'job', name: downloadJob.name, args: { collection: 'features', query: WHOLE_COLLECTION, options: ALL_OF_EACH_ITEM, baseUrl: 'http://127.0.0.1', format: 'csv' } } as const;
  let stream: ReturnType<WorkerLane['stream']> | null = null;
  const head = new Promise<void>((resolve) => {
    stream = lane.stream(call, 60_000, (part) => {
      parts.push(part);
      if (parts.length === 1) resolve();
    });
  });
  await head;
  // The CSV header row, then the first batch: asked for, and the client gone at once, while the worker makes it.
  stream!.more();
  stream!.more();
  stream!.stop();
  await stream!.done;
  assert.ok(parts.length <= 3, `no chunk made after the stop but the one under way (${parts.length} parts)`);
  // The same worker is free: the next call on the lane answers.
  const next = lane.stream(call, 60_000, () => undefined);
  next.stop();
  await next.done;
});
