// Sorting (OGC API – Records, `sortby`), property selection (Part 6, `properties`), skipGeometry,
// `q`, and the flat typed properties, as requests on the app. Orders are computed here from the
// records: ascending keys put nulls first, descending ones last, text by code point, ties
// broken by id ascending.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allIds, COLLECTIONS, enc, itemsPage, ogc400, ogcJson, useOgcSuite, walkNext, type Collection, type Value } from '../support/ogc.js';

const { t, catalogue, expected } = useOgcSuite();

function compareValues(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'string' && typeof b === 'string') {
    const [x, y] = [[...a].map((ch) => ch.codePointAt(0)!), [...b].map((ch) => ch.codePointAt(0)!)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  }
  return Number(a) - Number(b);
}

/** The ids in the order `sortby` asks for. */
function sortedIds(c: Collection, sortby: string): number[] {
  const keys = sortby.split(',').map((k) => ({ name: k.replace(/^[+-]/, ''), descending: k.startsWith('-') }));
  return [...expected[c]]
    .sort((a, b) => {
      for (const k of keys) {
        const order = compareValues(a.properties[k.name]!, b.properties[k.name]!);
        if (order !== 0) return k.descending ? -order : order;
      }
      return a.id - b.id;
    })
    .map((i) => i.id);
}

const SORTS: [Collection, string][] = [
  ['features', 'current'], ['features', '-current'], ['features', '+current'], ['features', 'current,-id'], ['features', '-current,b_name'],
  ['features', 'b_name'], ['features', '-b_name'], ['features', 'street,-current'], ['features', '-id'], ['features', 'feature_type,-site_id'],
  ['images', 'title'], ['images', '-created'], ['images', 'created'], ['images', 'author,-created'], ['images', 'copyright,title'],
  ['documents', '-last_edited,title'], ['media', '-author_id,title'],
];

describe('Sorting (sortby)', () => {
  test('/req/sorting/sortby: + and - keys, several keys, nulls first ascending and last descending, ties by id', async () => {
    for (const [c, sortby] of SORTS) {
      assert.deepEqual(await allIds(t, `/ogc/collections/${c}/items?sortby=${enc(sortby)}`), sortedIds(c, sortby), `${c} sortby=${sortby}`);
    }
  });

  test('/req/sorting/sortby: walking next (and prev back) with a sort gives every item once, in the order', async () => {
    for (const [c, sortby, limit] of [['features', '-current,b_name', 7], ['features', 'street,-current', 4], ['features', 'b_name', 5], ['images', '-created', 2], ['documents', 'title', 1]] as const) {
      const { pages, bodies } = await walkNext(t, `/ogc/collections/${c}/items?limit=${limit}&sortby=${enc(sortby)}`);
      assert.deepEqual(pages.flat(), sortedIds(c, sortby), `${c} sortby=${sortby} limit=${limit}`);
      const last = bodies[bodies.length - 1];
      if (bodies.length > 1) {
        const prev = await itemsPage(t, last.links.find((l: { rel: string }) => l.rel === 'prev').href.slice(t.origin.length));
        assert.deepEqual(prev.features.map((f: { id: number }) => f.id), pages[pages.length - 2]);
      }
    }
  });

  test('/req/sorting/sortby with a filter: sorted among the matches only', async () => {
    const want = sortedIds('features', '-current').filter((id) => {
      const p = expected.features.find((i) => i.id === id)!.properties;
      return p.street === 'Osborn Street';
    });
    const { pages } = await walkNext(t, '/ogc/collections/features/items?limit=6&sortby=-current&street=Osborn+Street');
    assert.deepEqual(pages.flat(), want);
  });

  test('/req/core/query-param-invalid: an unknown or unsortable key, a key twice, a bad sign → 400 naming sortby', async () => {
    for (const sortby of ['height', 'categories', 'description', '*current', 'current,current', 'current,-current', '', 'current,', 'current desc', '++current']) {
      assert.match(await ogc400(t, `/ogc/collections/features/items?sortby=${enc(sortby)}`), /"sortby"/, `sortby=${JSON.stringify(sortby)}`);
    }
  });
});

describe('Property selection, skipGeometry', () => {
  test('/req/property-selection: only the properties asked for, in the schema\'s order', async () => {
    const schema = await ogcJson(t, '/ogc/collections/images/schema');
    const order = Object.keys(schema.properties).filter((n) => n !== 'geometry');
    for (const properties of ['title', 'title,id', 'created,author,title', 'api_url,file_url', '']) {
      const asked = properties === '' ? [] : properties.split(',');
      const body = await itemsPage(t, `/ogc/collections/images/items?properties=${enc(properties)}`);
      assert.equal(body.features.length, expected.images.length);
      for (const f of body.features) {
        assert.deepEqual(Object.keys(f.properties), order.filter((n) => asked.includes(n)), `properties=${properties}`);
        const item = expected.images.find((i) => i.id === f.id)!;
        for (const name of asked) if (name in item.properties) assert.deepEqual(f.properties[name], item.properties[name]);
        assert.deepEqual(f.geometry, item.geometry);
      }
      const one = await ogcJson(t, `/ogc/collections/images/items/7?properties=${enc(properties)}`);
      assert.deepEqual(Object.keys(one.properties), order.filter((n) => asked.includes(n)));
    }
  });

  test('/req/core/query-param-invalid: an unknown property → 400 naming properties', async () => {
    for (const properties of ['height', 'title,height', 'geometry', 'Title']) {
      assert.match(await ogc400(t, `/ogc/collections/images/items?properties=${enc(properties)}`), /"properties"/, properties);
    }
    await ogc400(t, '/ogc/collections/images/items/7?properties=height');
  });

  test('skipGeometry=true: geometry null, everything else unchanged; false and absent alike; other values → 400', async () => {
    const full = await itemsPage(t, '/ogc/collections/features/items?limit=5');
    const skipped = await itemsPage(t, '/ogc/collections/features/items?limit=5&skipGeometry=true');
    assert.deepEqual(skipped.features, full.features.map((f: object) => ({ ...f, geometry: null })));
    assert.deepEqual((await itemsPage(t, '/ogc/collections/features/items?limit=5&skipGeometry=false')).features, full.features);
    assert.equal((await ogcJson(t, '/ogc/collections/features/items/1?skipGeometry=true')).geometry, null);
    for (const value of ['yes', '1', 'TRUE', '']) assert.match(await ogc400(t, `/ogc/collections/features/items?skipGeometry=${value}`), /"skipGeometry"/);
  });
});

describe('q: the same full-text search as /api/v1/', () => {
  /** Every id /api/v1/ finds for q, following its next links. */
  async function apiIds(c: Collection, q: string): Promise<number[]> {
    const found: number[] = [];
    let path: string | null = `/api/v1/${c}/?q=${enc(q)}`;
    while (path !== null) {
      const answer = await t.request(path);
      assert.equal(answer.status, 200, path);
      const body = answer.json();
      const rows = c === 'features' ? body.results.features : body.results;
      found.push(...rows.map((r: { id: number }) => r.id));
      path = body.next === null ? null : body.next.slice(t.origin.length);
    }
    return found.sort((a, b) => a - b);
  }

  test('q finds the records /api/v1/?q= finds, for the same words', async () => {
    const words: [Collection, string][] = [
      ['features', 'osborn'], ['features', 'spitalfields'], ['features', '11 osborn'], ['features', 'Osborn Street 23'], ['features', 'zzzz'],
      ['images', 'yard'], ['images', 'street'], ['images', 'łódź'], ['documents', 'yard'], ['documents', 'street life'], ['media', 'walk'], ['media', 'yard tour'],
    ];
    let some = 0;
    for (const [c, q] of words) {
      const want = await apiIds(c, q);
      if (want.length > 0) some++;
      assert.deepEqual(await allIds(t, `/ogc/collections/${c}/items?q=${enc(q)}`), want, `${c} q=${q}`);
    }
    assert.ok(some >= 9, `only ${some} searches find something`);
  });

  test('q combines with a filter and a sort', async () => {
    const want = (await apiIds('features', 'osborn')).filter((id) => expected.features.find((i) => i.id === id)!.properties.current !== null);
    const ordered = sortedIds('features', '-current').filter((id) => want.includes(id));
    assert.deepEqual(await allIds(t, `/ogc/collections/features/items?q=osborn&filter=${enc('current IS NOT NULL')}&sortby=-current`), ordered);
  });
});

describe('Flat typed properties', () => {
  const jsonType = (v: unknown) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v);

  test('every property value has the JSON type of the item schema, and queryables agree with the schema', async () => {
    for (const c of COLLECTIONS) {
      const schema = await ogcJson(t, `/ogc/collections/${c}/schema`);
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
      const queryables = await ogcJson(t, `/ogc/collections/${c}/queryables`);
      for (const [name, q] of Object.entries(queryables.properties) as [string, any][]) assert.deepEqual(q.type, schema.properties[name].type, `${c}.${name}`);
      const { features } = await itemsPage(t, `/ogc/collections/${c}/items?limit=10000`);
      const seen = new Set<string>();
      for (const f of features) {
        assert.deepEqual(Object.keys(f.properties), Object.keys(schema.properties).filter((n) => n !== 'geometry'), `${c} ${f.id}: every declared property, in order`);
        for (const [name, value] of Object.entries(f.properties)) {
          const declared: string[] = [schema.properties[name].type].flat();
          const type = jsonType(value);
          assert.ok(declared.includes(type) || (type === 'integer' && declared.includes('number')), `${c} ${f.id}.${name}: ${type} is not ${declared}`);
          if (schema.properties[name].format === 'date' && value !== null) assert.match(String(value), /^\d{4}-\d{2}-\d{2}$/);
          seen.add(`${name}:${type}`);
        }
      }
      // No property is JSON text of an object or a list.
      for (const f of features) for (const v of Object.values(f.properties)) assert.ok(typeof v !== 'object' || v === null);
      assert.ok(seen.size >= Object.keys(schema.properties).length - 1, `${c}: every property seen`);
    }
  });
});
