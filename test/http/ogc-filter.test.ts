// OGC API – Features Part 3 (queryables, queryables-query-parameters, filter, features-filter)
// and the CQL2 classes the server declares (cql2-text, cql2-json, basic-cql2,
// advanced-comparison-operators, case-insensitive-comparison, basic-spatial-functions), as
// requests on the app. Each filter is sent in CQL2-Text and CQL2-JSON; the ids it must find
// are computed here from the catalogue's records (three-valued logic: a comparison with null
// is never true) and the tests' own polygon intersection.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boxPolygon, footprintMeets, type Point, type Polygon } from '../support/ogc-geometry.js';
import { allIds, COLLECTIONS, enc, idsWhere, ogc400, ogcJson, useOgcSuite, type Collection, type ExpectedItem, type Value } from '../support/ogc.js';

const { t, catalogue, expected } = useOgcSuite();

/** The queryables each collection must declare, with their JSON types (written from the issue, not read from the code). */
const QUERYABLES: Record<Collection, Record<string, string | string[]>> = {
  features: {
    id: 'integer', feature_type: 'string', b_number: ['string', 'null'], b_name: ['string', 'null'], street: ['string', 'null'], postcode: 'string',
    address: 'string', current: ['integer', 'null'], site_id: ['integer', 'null'], site_name: ['string', 'null'], categories: 'string',
    image_count: 'integer', document_count: 'integer', media_count: 'integer',
  },
  images: {
    id: 'integer', title: 'string', description: 'string', copyright: 'boolean', created: ['string', 'null'],
    author: 'string', author_id: 'integer', feature_id: 'integer', address: 'string',
  },
  documents: { id: 'integer', title: 'string', created: 'string', last_edited: 'string', author: 'string', author_id: 'integer', feature_id: 'integer', address: 'string' },
  media: { id: 'integer', title: 'string', url: 'string', author: 'string', author_id: 'integer', feature_id: 'integer', address: 'string' },
};
const DATES = new Set(['created', 'last_edited']);

const items = (c: Collection, filter: string, lang?: 'cql2-text' | 'cql2-json') =>
  `/ogc/collections/${c}/items?filter=${enc(filter)}${lang === undefined ? '' : `&filter-lang=${lang}`}`;

describe('OGC Part 3 queryables', () => {
  for (const c of COLLECTIONS) {
    test(`/req/queryables/get-queryables-op, /req/queryables/get-queryables-response: ${c}`, async () => {
      const answer = await t.request(`/ogc/collections/${c}/queryables`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'application/schema+json');
      const body = answer.json();
      assert.equal(body.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(body.$id, `${t.origin}/ogc/collections/${c}/queryables`);
      assert.equal(body.type, 'object');
      // G: undeclared properties are refused (tested below), so the schema says so.
      assert.equal(body.additionalProperties, false);
      const { geometry, ...rest } = body.properties;
      // D, E: the spatial property has a format, no type and no $ref.
      assert.equal(geometry.format, 'geometry-multipolygon');
      assert.ok(!('type' in geometry) && !('$ref' in geometry));
      // C: every other property is typed; F: dates are strings of format date.
      const types = Object.fromEntries(Object.entries(rest).map(([name, schema]: [string, any]) => [name, schema.type]));
      assert.deepEqual(types, QUERYABLES[c]);
      for (const [name, schema] of Object.entries(rest) as [string, any][]) {
        if (DATES.has(name)) assert.equal(schema.format, 'date', name);
        assert.equal(typeof schema.title, 'string', name);
      }
    });
  }

  test('/req/queryables/queryables-link, /req/features-filter/queryables-link: each collection links its queryables', async () => {
    const body = await ogcJson(t, '/ogc/collections');
    for (const c of body.collections) {
      const links = c.links.filter((l: { rel: string }) => l.rel === 'http://www.opengis.net/def/rel/ogc/1.0/queryables');
      assert.deepEqual(links.map((l: { href: string; type: string }) => [l.href, l.type]), [[`${t.origin}/ogc/collections/${c.id}/queryables`, 'application/schema+json']], c.id);
    }
  });
});

describe('OGC Part 3 queryables-query-parameters', () => {
  test('/req/queryables-query-parameters/parameters C, D: every simple queryable as name=value selects the items with that value', async () => {
    let checked = 0;
    for (const c of COLLECTIONS) {
      for (const name of Object.keys(QUERYABLES[c])) {
        // Two values of the property from the records (the first item's and a later one's), nulls skipped.
        const values = [...new Set(expected[c].map((i) => i.properties[name]).filter((v): v is Exclude<Value, null> => v !== null && v !== undefined))];
        assert.ok(values.length > 0, `${c}.${name}: the records give a value`);
        for (const value of [values[0]!, values[values.length - 1]!]) {
          const want = idsWhere(expected[c], (p) => p[name] === value);
          assert.deepEqual(await allIds(t, `/ogc/collections/${c}/items?${name}=${enc(String(value))}`), want, `${c}?${name}=${value}`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 70);
  });

  test('/req/queryables-query-parameters/parameters C: values of the queryable\'s type only: anything else → 400 naming it', async () => {
    const cases = ['features?current=abc', 'features?current=1885.5', 'features?id=', 'features?site_id=x', 'images?copyright=yes', 'images?copyright=1',
      'images?created=2016-02-30', 'images?created=yesterday', 'documents?last_edited=2016', 'media?author_id=two'];
    for (const query of cases) {
      const name = query.split('?')[1]!.split('=')[0]!;
      // On the items path: the collection's own document takes (and ignores) the items' parameters.
      assert.match(await ogc400(t, `/ogc/collections/${query.replace('?', '/items?')}`), new RegExp(`"${name}"`), query);
    }
  });

  test('/req/queryables-query-parameters/parameters D: several name=value pairs must all hold; a string matches exactly', async () => {
    assert.deepEqual(
      await allIds(t, '/ogc/collections/features/items?street=Osborn+Street&current=1887'),
      idsWhere(expected.features, (p) => p.street === 'Osborn Street' && p.current === 1887),
    );
    assert.deepEqual(await allIds(t, '/ogc/collections/features/items?street=osborn+street'), []);
    assert.deepEqual(await allIds(t, '/ogc/collections/features/items?street=Osborn'), []);
    assert.deepEqual(await allIds(t, `/ogc/collections/images/items?author=${enc('zoë')}&copyright=true`), idsWhere(expected.images, (p) => p.author === 'zoë' && p.copyright === true));
  });
});

/** One filter in both encodings and what it must select. */
interface Case {
  c: Collection;
  text: string;
  json: unknown;
  keep: (p: Record<string, any>, item: ExpectedItem) => boolean;
}

const prop = (name: string) => ({ property: name });
const op = (name: string, ...args: unknown[]) => ({ op: name, args });
const num = (v: Value): v is number => typeof v === 'number';
const str = (v: Value): v is string => typeof v === 'string';

/** The centre of feature n's square (n > 3: the plain buildings). */
function centreOf(items: readonly ExpectedItem[], id: number): Point {
  const ring = items.find((i) => i.id === id)!.geometry.coordinates[0]![0]!;
  return [(ring[0]![0]! + ring[2]![0]!) / 2, (ring[0]![1]! + ring[2]![1]!) / 2];
}

function cases(): Record<string, Case[]> {
  const point = centreOf(expected.features, 21);
  const courtyard: Point = [-0.070395, 51.516858];
  const box = [-0.0702, 51.5169, -0.0688, 51.5176];
  const triangle: Polygon = [[[-0.0703, 51.5169], [-0.0680, 51.5169], [-0.0680, 51.5184], [-0.0703, 51.5169]]];
  const polygonText = `POLYGON((${triangle[0]!.map((p) => `${p[0]} ${p[1]}`).join(', ')}))`;
  return {
    'basic-cql2': [
      { c: 'features', text: 'current = 1885', json: op('=', prop('current'), 1885), keep: (p) => p.current === 1885 },
      { c: 'features', text: 'current <> 1885', json: op('<>', prop('current'), 1885), keep: (p) => num(p.current) && p.current !== 1885 },
      { c: 'features', text: 'current < 1885', json: op('<', prop('current'), 1885), keep: (p) => num(p.current) && p.current < 1885 },
      { c: 'features', text: 'current >= 1890', json: op('>=', prop('current'), 1890), keep: (p) => num(p.current) && p.current >= 1890 },
      { c: 'features', text: 'current <= 1882', json: op('<=', prop('current'), 1882), keep: (p) => num(p.current) && p.current <= 1882 },
      { c: 'features', text: 'current > 1895', json: op('>', prop('current'), 1895), keep: (p) => num(p.current) && p.current > 1895 },
      { c: 'features', text: 'b_name IS NULL', json: op('isNull', prop('b_name')), keep: (p) => p.b_name === null },
      { c: 'features', text: 'b_name IS NOT NULL', json: op('not', op('isNull', prop('b_name'))), keep: (p) => p.b_name !== null },
      { c: 'features', text: "b_name = ''", json: op('=', prop('b_name'), ''), keep: (p) => p.b_name === '' },
      { c: 'features', text: "street = 'Osborn Street' AND current > 1890", json: op('and', op('=', prop('street'), 'Osborn Street'), op('>', prop('current'), 1890)), keep: (p) => p.street === 'Osborn Street' && num(p.current) && p.current > 1890 },
      { c: 'features', text: "feature_type = 'PLACE' OR site_id = 1", json: op('or', op('=', prop('feature_type'), 'PLACE'), op('=', prop('site_id'), 1)), keep: (p) => p.feature_type === 'PLACE' || p.site_id === 1 },
      { c: 'features', text: 'NOT (current > 1885)', json: op('not', op('>', prop('current'), 1885)), keep: (p) => num(p.current) && p.current <= 1885 },
      { c: 'features', text: 'NOT (current > 1885) OR current IS NULL', json: op('or', op('not', op('>', prop('current'), 1885)), op('isNull', prop('current'))), keep: (p) => !num(p.current) || p.current <= 1885 },
      { c: 'features', text: 'image_count > 0 AND document_count = 0', json: op('and', op('>', prop('image_count'), 0), op('=', prop('document_count'), 0)), keep: (p) => p.image_count > 0 && p.document_count === 0 },
      { c: 'features', text: 'id = 1 OR (id > 200 AND NOT (street IS NULL))', json: op('or', op('=', prop('id'), 1), op('and', op('>', prop('id'), 200), op('not', op('isNull', prop('street'))))), keep: (p) => p.id === 1 || (p.id > 200 && p.street !== null) },
      { c: 'features', text: 'TRUE', json: true, keep: () => true },
      { c: 'features', text: 'FALSE', json: false, keep: () => false },
      { c: 'images', text: 'copyright = TRUE', json: op('=', prop('copyright'), true), keep: (p) => p.copyright === true },
      { c: 'images', text: "created = DATE('2016-06-01')", json: op('=', prop('created'), { date: '2016-06-01' }), keep: (p) => p.created === '2016-06-01' },
      { c: 'images', text: "created > DATE('2016-06-01')", json: op('>', prop('created'), { date: '2016-06-01' }), keep: (p) => str(p.created) && p.created > '2016-06-01' },
      { c: 'documents', text: "last_edited >= DATE('2018-01-01') AND author = 'surveyoflondon'", json: op('and', op('>=', prop('last_edited'), { date: '2018-01-01' }), op('=', prop('author'), 'surveyoflondon')), keep: (p) => p.last_edited >= '2018-01-01' && p.author === 'surveyoflondon' },
      { c: 'media', text: "author_id = 5 OR title = 'street walk'", json: op('or', op('=', prop('author_id'), 5), op('=', prop('title'), 'street walk')), keep: (p) => p.author_id === 5 || p.title === 'street walk' },
    ],
    'advanced-comparison-operators': [
      { c: 'features', text: "b_name LIKE 'Building 1%'", json: op('like', prop('b_name'), 'Building 1%'), keep: (p) => str(p.b_name) && p.b_name.startsWith('Building 1') },
      { c: 'features', text: "address LIKE '_1 Osborn%'", json: op('like', prop('address'), '_1 Osborn%'), keep: (p) => /^.1 Osborn/s.test(p.address) },
      { c: 'features', text: "b_name NOT LIKE '%1%'", json: op('not', op('like', prop('b_name'), '%1%')), keep: (p) => str(p.b_name) && !p.b_name.includes('1') },
      { c: 'features', text: 'current BETWEEN 1883 AND 1887', json: op('between', prop('current'), 1883, 1887), keep: (p) => num(p.current) && p.current >= 1883 && p.current <= 1887 },
      { c: 'features', text: 'current NOT BETWEEN 1883 AND 1887', json: op('not', op('between', prop('current'), 1883, 1887)), keep: (p) => num(p.current) && (p.current < 1883 || p.current > 1887) },
      { c: 'features', text: 'id IN (1, 3, 5, 999)', json: op('in', prop('id'), [1, 3, 5, 999]), keep: (p) => [1, 3, 5].includes(p.id) },
      { c: 'features', text: "feature_type NOT IN ('PLACE', 'GREATER_WHITECHAPEL')", json: op('not', op('in', prop('feature_type'), ['PLACE', 'GREATER_WHITECHAPEL'])), keep: (p) => p.feature_type === 'WHITECHAPEL_BUILDING' },
      { c: 'images', text: "title LIKE 'Yard%'", json: op('like', prop('title'), 'Yard%'), keep: (p) => p.title.startsWith('Yard') },
      { c: 'images', text: String.raw`title LIKE 'Yard\_2'`, json: op('like', prop('title'), String.raw`Yard\_2`), keep: (p) => p.title === 'Yard_2' },
      { c: 'images', text: String.raw`title LIKE '100\%%'`, json: op('like', prop('title'), String.raw`100\%%`), keep: (p) => p.title.startsWith('100%') },
      { c: 'images', text: "title LIKE 'street%'", json: op('like', prop('title'), 'street%'), keep: (p) => p.title.startsWith('street') },
      { c: 'documents', text: "title IN ('A yard', 'street life', 'Draft')", json: op('in', prop('title'), ['A yard', 'street life', 'Draft']), keep: (p) => ['A yard', 'street life'].includes(p.title) },
    ],
    'case-insensitive-comparison': [
      { c: 'images', text: "CASEI(title) LIKE CASEI('street front%')", json: op('like', op('casei', prop('title')), op('casei', 'street front%')), keep: (p) => p.title.toLowerCase().startsWith('street front') },
      { c: 'images', text: "CASEI(author) = CASEI('ZOË')", json: op('=', op('casei', prop('author')), op('casei', 'ZOË')), keep: (p) => p.author === 'zoë' },
      { c: 'images', text: "CASEI(title) = CASEI('100% łÓdŹ')", json: op('=', op('casei', prop('title')), op('casei', '100% łÓdŹ')), keep: (p) => p.title === '100% Łódź' },
      { c: 'documents', text: "CASEI(title) IN (CASEI('A YARD'), CASEI('STREET LIFE'))", json: op('in', op('casei', prop('title')), [op('casei', 'A YARD'), op('casei', 'STREET LIFE')]), keep: (p) => ['a yard', 'street life'].includes(p.title.toLowerCase()) },
      { c: 'features', text: "CASEI(street) <> CASEI('OSBORN STREET')", json: op('<>', op('casei', prop('street')), op('casei', 'OSBORN STREET')), keep: (p) => str(p.street) && p.street.toLowerCase() !== 'osborn street' },
    ],
    'basic-spatial-functions': [
      { c: 'features', text: `S_INTERSECTS(geometry, POINT(${point[0]} ${point[1]}))`, json: op('s_intersects', prop('geometry'), { type: 'Point', coordinates: point }), keep: (_p, i) => footprintMeets(i.geometry, point) },
      { c: 'features', text: `S_INTERSECTS(geometry, POINT(${courtyard[0]} ${courtyard[1]}))`, json: op('s_intersects', prop('geometry'), { type: 'Point', coordinates: courtyard }), keep: (_p, i) => footprintMeets(i.geometry, courtyard) },
      { c: 'features', text: `S_INTERSECTS(geometry, BBOX(${box.join(', ')}))`, json: op('s_intersects', prop('geometry'), { bbox: box }), keep: (_p, i) => footprintMeets(i.geometry, boxPolygon(box[0]!, box[1]!, box[2]!, box[3]!)) },
      { c: 'features', text: `S_INTERSECTS(geometry, ${polygonText})`, json: op('s_intersects', prop('geometry'), { type: 'Polygon', coordinates: triangle }), keep: (_p, i) => footprintMeets(i.geometry, triangle) },
      { c: 'features', text: `S_INTERSECTS(geometry, ${polygonText}) AND current IS NOT NULL`, json: op('and', op('s_intersects', prop('geometry'), { type: 'Polygon', coordinates: triangle }), op('not', op('isNull', prop('current')))), keep: (p, i) => footprintMeets(i.geometry, triangle) && p.current !== null },
      { c: 'features', text: `NOT S_INTERSECTS(geometry, BBOX(${box.join(', ')}))`, json: op('not', op('s_intersects', prop('geometry'), { bbox: box })), keep: (_p, i) => !footprintMeets(i.geometry, boxPolygon(box[0]!, box[1]!, box[2]!, box[3]!)) },
      { c: 'images', text: `S_INTERSECTS(geometry, ${polygonText})`, json: op('s_intersects', prop('geometry'), { type: 'Polygon', coordinates: triangle }), keep: (_p, i) => footprintMeets(i.geometry, triangle) },
      { c: 'media', text: `S_INTERSECTS(geometry, BBOX(${box.join(', ')}))`, json: op('s_intersects', prop('geometry'), { bbox: box }), keep: (_p, i) => footprintMeets(i.geometry, boxPolygon(box[0]!, box[1]!, box[2]!, box[3]!)) },
    ],
  };
}

describe('CQL2: each declared class, in cql2-text and cql2-json alike', () => {
  for (const name of ['basic-cql2', 'advanced-comparison-operators', 'case-insensitive-comparison', 'basic-spatial-functions']) {
    test(`/conf/${name} (/req/filter/response, /req/features-filter/filter-param, /req/features-filter/filter-lang-param): the same items in both encodings, as the records say`, async () => {
      const all = cases()[name]!;
      let narrowed = 0;
      for (const k of all) {
        const want = idsWhere(expected[k.c], k.keep);
        if (want.length > 0 && want.length < expected[k.c].length) narrowed++;
        assert.deepEqual(await allIds(t, items(k.c, k.text)), want, `${k.c}: ${k.text}`);
        assert.deepEqual(await allIds(t, items(k.c, k.text, 'cql2-text')), want, `${k.c}: ${k.text} (cql2-text)`);
        assert.deepEqual(await allIds(t, items(k.c, JSON.stringify(k.json), 'cql2-json')), want, `${k.c}: ${JSON.stringify(k.json)}`);
      }
      assert.ok(narrowed >= all.length - 4, `${name}: only ${narrowed} of ${all.length} filters select some but not all`);
    });
  }

  test('/req/filter/mixing-expressions, /req/features-filter/response B-D: filter AND bbox AND datetime AND name=value', async () => {
    const box = [-0.0712, 51.5160, -0.0650, 51.5185];
    const inBox = (i: ExpectedItem) => footprintMeets(i.geometry, boxPolygon(box[0]!, box[1]!, box[2]!, box[3]!));
    const cases: [string, (p: Record<string, any>, i: ExpectedItem) => boolean][] = [
      [`filter=${enc('current >= 1885')}&bbox=${box.join(',')}`, (p, i) => num(p.current) && p.current >= 1885 && inBox(i)],
      [`filter=${enc('current >= 1885')}&datetime=../1890-06-01`, (p) => num(p.current) && p.current >= 1885 && p.current <= 1890],
      [`filter=${enc('b_name IS NOT NULL')}&street=${enc('Osborn Street')}&bbox=${box.join(',')}&datetime=1880-01-01/1895-12-31`,
        (p, i) => p.b_name !== null && p.street === 'Osborn Street' && inBox(i) && (p.current === null || (p.current >= 1880 && p.current <= 1895))],
      [`filter=${enc(JSON.stringify(op('or', op('=', prop('id'), 1), op('=', prop('id'), 3))))}&filter-lang=cql2-json&id=3`, (p) => p.id === 3],
      [`filter=${enc('id = 1')}&id=3`, () => false],
    ];
    for (const [query, keep] of cases) {
      const want = idsWhere(expected.features, keep);
      assert.deepEqual(await allIds(t, `/ogc/collections/features/items?${query}`), want, query);
    }
  });
});

describe('OGC Part 3 filter: refusals', () => {
  test('/req/features-filter/response E: a filter that cannot be read → 400 saying where (line and column)', async () => {
    const bad: [string, RegExp][] = [
      ['current = ', /line 1, column 11/],
      ['current > 1885 AND', /line 1, column 19/],
      ['(current = 1885', /line 1, column 16/],
      ['current = 1885\nAND b_name ==', /line 2, column 1[0-3]/],
      ["b_name = 'unclosed", /line 1, column/],
      ['current 1885', /line 1, column 9/],
      ["created = DATE('2016-02-30')", /2016-02-30/],
    ];
    for (const [filter, where] of bad) {
      const description = await ogc400(t, items(filter.startsWith('created') ? 'images' : 'features', filter));
      assert.match(description, where, `${JSON.stringify(filter)}: ${description}`);
    }
  });

  test('/req/features-filter/response E: cql2-json that is not JSON or not CQL2 → 400 saying where', async () => {
    for (const filter of ['{"op":"="', '{"op":"=","args":[{"property":"current"}]}', '{"op":"~","args":[1,2]}', '[1]', 'current = 1885']) {
      const description = await ogc400(t, items('features', filter, 'cql2-json'));
      assert.match(description, /filter/i, filter);
    }
  });

  test('/req/features-filter/response E: an unknown filter-lang or filter-crs → 400 naming it; CRS84 is taken', async () => {
    assert.match(await ogc400(t, `${items('features', 'id = 1')}&filter-lang=ecql`), /"filter-lang"/);
    assert.match(await ogc400(t, '/ogc/collections/features/items?filter-lang=cql'), /"filter-lang"/);
    assert.match(await ogc400(t, `${items('features', 'id = 1')}&filter-crs=${enc('http://www.opengis.net/def/crs/EPSG/0/32630')}`), /"filter-crs"/);
    assert.deepEqual(await allIds(t, `${items('features', 'id = 1')}&filter-crs=${enc('http://www.opengis.net/def/crs/OGC/1.3/CRS84')}`), [1]);
  });

  test('/req/queryables/get-queryables-response G, /req/queryables/expression-construction: a property that is not a queryable → 400 naming it', async () => {
    const cases: [Collection, string, string][] = [
      ['features', 'height = 3', 'height'], ['features', 'tags = \'x\'', 'tags'], ['images', 'current = 1885', 'current'],
      ['media', 'S_INTERSECTS(footprint, POINT(0 0))', 'footprint'], ['features', 'CURRENT = 1885', 'CURRENT'],
    ];
    for (const [c, filter, name] of cases) assert.match(await ogc400(t, items(c, filter)), new RegExp(name), `${c}: ${filter}`);
    assert.match(await ogc400(t, items('features', JSON.stringify(op('=', prop('height'), 3)), 'cql2-json')), /height/);
  });

  test('/req/features-filter/response E: a literal of the wrong type for its property → 400 naming both', async () => {
    // CQL2 1.0's BETWEEN takes numeric expressions only (isBetweenPredicate).
    for (const [c, filter] of [['features', "current = 'abc'"], ['images', 'copyright = 1'], ['images', "created > '2016-01-01'"], ['features', 'b_name > 3'],
      ['images', "created BETWEEN DATE('2016-01-01') AND DATE('2016-12-31')"], ['features', "b_name BETWEEN 'a' AND 'b'"]] as const) {
      const description = await ogc400(t, items(c, filter));
      assert.match(description, new RegExp(filter.split(' ')[0]!), `${c}: ${filter}: ${description}`);
    }
  });
});
