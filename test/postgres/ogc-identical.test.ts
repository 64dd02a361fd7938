// Both stores give the OGC face byte-identical answers (issue 18, "Done means"): the same
// catalogue in SQLite and in PostgreSQL, the same requests in process, the answers equal byte
// for byte but for `timeStamp`; `next` links are followed on both, so the cursors agree too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Answer } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { enc, ogcCatalogue } from '../support/ogc.js';
import { createTestDatabase, postgresUnavailableReason } from '../support/stores.js';

const reason = await postgresUnavailableReason();
const required = process.env.HERITAGE_TEST_POSTGRES === 'required';

const PATHS = [
  '/ogc/', '/ogc/conformance',
  '/ogc/collections/features/queryables', '/ogc/collections/documents/schema',
  '/ogc/collections/features/items', '/ogc/collections/features/items?limit=7', '/ogc/collections/images/items?limit=2',
  '/ogc/collections/documents/items', '/ogc/collections/media/items?f=json',
  '/ogc/collections/features/items?bbox=-0.0712,51.5148,-0.065,51.5185&limit=5',
  '/ogc/collections/features/items?datetime=1883-01-01/1887-12-31&limit=9',
  '/ogc/collections/images/items?datetime=2016-06-01',
  `/ogc/collections/features/items?filter=${enc("b_name LIKE 'Building 1%' OR current BETWEEN 1883 AND 1887")}&limit=6`,
  `/ogc/collections/images/items?filter=${enc("CASEI(title) LIKE CASEI('street%')")}`,
  `/ogc/collections/features/items?filter=${enc('S_INTERSECTS(geometry, POLYGON((-0.0703 51.5169, -0.068 51.5169, -0.068 51.5184, -0.0703 51.5169)))')}`,
  `/ogc/collections/features/items?filter=${enc(JSON.stringify({ op: 'in', args: [{ property: 'id' }, [1, 3, 5]] }))}&filter-lang=cql2-json`,
  '/ogc/collections/features/items?sortby=-current,b_name&limit=8', '/ogc/collections/features/items?sortby=street,-current&limit=11',
  '/ogc/collections/images/items?sortby=-created&properties=title,created&limit=3',
  '/ogc/collections/features/items?q=osborn&limit=10&skipGeometry=true',
  '/ogc/collections/features/items/1', '/ogc/collections/images/items/7?properties=title', '/ogc/collections/documents/items/971',
  // Refusals too.
  '/ogc/collections/features/items?limit=0', '/ogc/collections/features/items?limt=1', '/ogc/collections/features/items?bbox=1,2,3',
  `/ogc/collections/features/items?filter=${enc('current = ')}`, `/ogc/collections/features/items?filter=${enc('height = 3')}`,
  '/ogc/collections/features/items/2', '/ogc/collections/images/items/8',
];

/** Their extents differ: SQLite's come from its R*Tree (32-bit floats, rounded outwards), PostgreSQL's are exact. */
const EXTENTS = ['/ogc/collections', '/ogc/collections/features', '/ogc/collections/media'];

const withoutTimeStamp = (bytes: Buffer) => bytes.toString('utf8').replace(/"timeStamp":"[^"]*"/, '"timeStamp":""');

if (reason !== null && !required) {
  test(`SQLite and PostgreSQL answer /ogc/ byte for byte: ${reason}`, { skip: reason }, () => undefined);
} else {
  let sqlite: TestApp;
  let postgres: TestApp;
  before(async () => {
    if (reason !== null) throw new Error(reason);
    const catalogue = ogcCatalogue();
    sqlite = await startTestApp({ catalogue, database: createTestDatabase('sqlite') });
    postgres = await startTestApp({ catalogue, database: createTestDatabase('postgres') });
  });
  after(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  test('SQLite and PostgreSQL answer /ogc/ byte for byte (but timeStamp), next pages included', async () => {
    let compared = 0;
    for (const start of PATHS) {
      let path: string | null = start;
      while (path !== null) {
        const a: Answer = await sqlite.request(path);
        const b: Answer = await postgres.request(path);
        assert.equal(a.status, b.status, path);
        assert.equal(a.headers['content-type'], b.headers['content-type'], path);
        assert.equal(withoutTimeStamp(a.bytes), withoutTimeStamp(b.bytes), path);
        compared++;
        const next = a.status === 200 ? (a.json().links ?? []).find((l: { rel: string }) => l.rel === 'next') : undefined;
        path = next === undefined ? null : next.href.slice(sqlite.origin.length);
      }
    }
    assert.ok(compared > PATHS.length + 20, `${compared} answers compared`);
  });

  test('SQLite and PostgreSQL give the same collections and extents byte for byte', async () => {
      for (const path of EXTENTS) assert.equal((await sqlite.request(path)).text, (await postgres.request(path)).text, path);
    });

  test('SQLite and PostgreSQL give the same collections but for the extents\' last digits', async () => {
    for (const path of EXTENTS) {
      const [a, b] = [(await sqlite.request(path)).json(), (await postgres.request(path)).json()];
      const boxes: number[][] = [];
      const strip = (body: any) => JSON.stringify(body, (key, value) => (key === 'bbox' ? (boxes.push(value.flat()), null) : value));
      assert.equal(strip(a), strip(b), path);
      const half = boxes.length / 2;
      for (let i = 0; i < half; i++) boxes[i]!.forEach((v, k) => assert.ok(Math.abs(v - boxes[half + i]![k]!) < 1e-5, `${path}: ${boxes[i]} vs ${boxes[half + i]}`));
    }
  });
}
