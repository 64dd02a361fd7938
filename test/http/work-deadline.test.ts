// A costly read past its deadline (DB_TIMEOUT_MS of its worker's CPU time, issue 33): the
// worker is ended, the request gets the 503 a PostgreSQL statement timeout gives, with
// Retry-After, and the server goes on answering, the next costly read in a new worker.
// SQLite: its reads are the ones the deadline alone bounds (PostgreSQL's statement timeout
// is tested with the database slowed, test/postgres/operations.test.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { largeCatalogue } from '../support/catalogue.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

/** A 200-vertex circle whose box holds every footprint: each row is tested against it in full. */
function circle(): string {
  const ring = Array.from({ length: 200 }, (_, k) => `${(-0.07 + 0.03 * Math.cos((k / 200) * 2 * Math.PI)).toFixed(4)} ${(51.51 + 0.03 * Math.sin((k / 200) * 2 * Math.PI)).toFixed(4)}`);
  return `S_INTERSECTS(geometry,POLYGON((${[...ring, ring[0]].join(',')})))`;
}

let app: TestApp;
before(async () => {
  app = await startTestApp({ catalogue: largeCatalogue({ count: 300, positions: 1400 }), settings: { dbTimeoutMs: '50' } });
});
after(() => app.close());

test('a read past DB_TIMEOUT_MS of CPU time: 503 with Retry-After; the server answers on, costly reads too', async () => {
  const filter = encodeURIComponent(circle());
  const slow = await app.request(`/ogc/collections/features/items?limit=7&filter=${filter}`);
  assert.equal(slow.status, 503);
  assert.equal(slow.headers['retry-after'], '1');
  assert.deepEqual(JSON.parse(slow.bytes.toString('utf8')), { code: 'ServiceUnavailable', description: 'Service unavailable.' });
  const cheap = await app.request('/api/v1/features/?page=2');
  assert.equal(cheap.status, 200);
  // A costly read within the deadline, in a new worker of the same lane.
  const filtered = await app.request('/ogc/collections/features/items?limit=3&filter=id%3D1001');
  assert.equal(filtered.status, 200);
  assert.deepEqual((JSON.parse(filtered.bytes.toString('utf8')) as { features: { id: number }[] }).features.map((f) => f.id), [1001]);
});
