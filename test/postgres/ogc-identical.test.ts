// Both stores give the OGC face byte-identical answers (issue 18, "Done means"): the same
// catalogue in SQLite and in PostgreSQL, the same requests in process, the answers equal byte
// for byte but for `timeStamp`; `next` links are followed on both, so the cursors agree too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onBothStores } from '../support/both-stores.js';
import type { Answer } from '../support/http.js';
import { enc, ogcCatalogue } from '../support/ogc.js';

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
  // As GDAL writes a -where (filter-lang=cql-text), its dataset URL's query appended again to a next link.
  `/ogc/collections/features/items?filter=${enc("(street ILIKE '%STREET') AND (NOT ((b_name IS NULL)))")}&filter-lang=cql-text&limit=4&datetime=1880-01-01%2F1890-12-31&datetime=1880-01-01/1890-12-31`,
  `/ogc/collections/images/items?filter=${enc("created >= '2016-06-01T'")}&filter-lang=cql-text`,
  '/ogc/collections/features/items?sortby=-current,b_name&limit=8', '/ogc/collections/features/items?sortby=street,-current&limit=11',
  '/ogc/collections/images/items?sortby=-created&properties=title,created&limit=3',
  '/ogc/collections/features/items?q=osborn&limit=10&skipGeometry=true',
  '/ogc/collections/features/items/1', '/ogc/collections/images/items/7?properties=title', '/ogc/collections/documents/items/971',
  // Refusals too.
  '/ogc/collections/features/items?limit=0', '/ogc/collections/features/items?limt=1', '/ogc/collections/features/items?bbox=1,2,3',
  `/ogc/collections/features/items?filter=${enc('current = ')}`, `/ogc/collections/features/items?filter=${enc('height = 3')}`,
  '/ogc/collections/features/items/2', '/ogc/collections/images/items/8',
];

/** The extents: exact on both stores (SQLite refines its R*Tree's rounded boxes, store/dialect.ts), so byte for byte too. */
const EXTENTS = ['/ogc/collections', '/ogc/collections/features', '/ogc/collections/media'];

const withoutTimeStamp = (bytes: Buffer) => bytes.toString('utf8').replace(/"timeStamp":"[^"]*"/, '"timeStamp":""');

await onBothStores('SQLite and PostgreSQL answer /ogc/ byte for byte', ogcCatalogue, (apps) => {
  test('SQLite and PostgreSQL answer /ogc/ byte for byte (but timeStamp), next pages included', async () => {
    let compared = 0;
    for (const start of PATHS) {
      let path: string | null = start;
      while (path !== null) {
        const a: Answer = await apps.sqlite.request(path);
        const b: Answer = await apps.postgres.request(path);
        assert.equal(a.status, b.status, path);
        assert.equal(a.headers['content-type'], b.headers['content-type'], path);
        assert.equal(withoutTimeStamp(a.bytes), withoutTimeStamp(b.bytes), path);
        compared++;
        const next = a.status === 200 ? (a.json().links ?? []).find((l: { rel: string }) => l.rel === 'next') : undefined;
        path = next === undefined ? null : next.href.slice(apps.sqlite.origin.length);
      }
    }
    assert.ok(compared > PATHS.length + 20, `${compared} answers compared`);
  });

  test('SQLite and PostgreSQL give the same collections and extents byte for byte', async () => {
    for (const path of EXTENTS) assert.equal((await apps.sqlite.request(path)).text, (await apps.postgres.request(path)).text, path);
  });
});
