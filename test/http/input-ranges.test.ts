// Values outside what any stored value can be (issue 33, defects 4 and 8): ids past
// PostgreSQL's integer, text holding NUL, numbers an integer property cannot hold, forged
// cursors, coordinates outside longitude and latitude. PostgreSQL answered 500 (or matched
// every footprint) where SQLite answered; each now gets the same exact answer on both stores
// (test/postgres/input-ranges.test.ts runs this file there): a detail not found, else a 400
// naming what was wrong.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { enc, useOgcSuite } from '../support/ogc.js';

const { t } = useOgcSuite();

const FEATURES = '/ogc/collections/features/items';
const IMAGES = '/ogc/collections/images/items';
const filter = (text: string) => `${FEATURES}?filter=${enc(text)}`;
const jsonFilter = (text: string) => `${FEATURES}?filter=${enc(text)}&filter-lang=cql2-json`;
/** A next link's value as the server writes one: its keys as base64url JSON. */
const cursor = (keys: unknown[]) => Buffer.from(JSON.stringify(keys)).toString('base64url');

const API_NOT_FOUND = { detail: 'Not found.' };
const OGC_NOT_FOUND = { code: 'NotFound', description: 'Not found.' };
const invalidValue = (name: string, expected: string) => ({ code: 'InvalidParameterValue', description: `Invalid value of "${name}": expected ${expected}.` });
const invalidFilter = (sentence: string) => ({ code: 'InvalidParameterValue', description: `Invalid filter: ${sentence}` });
const INTEGER_RANGE = 'a whole number from -2147483648 to 2147483647';
const NUL_PARAMETER = (name: string) => `Invalid ${name}: null characters are not allowed.`;
const ogcNul = (name: string) => ({ code: 'InvalidParameterValue', description: NUL_PARAMETER(name) });
const integerProperty = (name: string, value: string) =>
  invalidFilter(`The filter compares the property "${name}" (an integer) with ${value}, but it holds whole numbers from -2147483648 to 2147483647 only.`);
const NOT_OUR_CURSOR = 'the value of a next or prev link of this server, with the same sortby';
const RANGES = 'longitude -180 to 180 and latitude -90 to 90';

const CASES: { url: string; status: number; body: unknown }[] = [
  // Ids past PostgreSQL's integer: no record has one.
  { url: '/api/v1/features/2147483648/', status: 404, body: API_NOT_FOUND },
  { url: '/api/v1/images/99999999999/', status: 404, body: API_NOT_FOUND },
  { url: `${FEATURES}/2147483648`, status: 404, body: OGC_NOT_FOUND },
  { url: `${IMAGES}/99999999999`, status: 404, body: OGC_NOT_FOUND },
  // Integer queryables as name=value: /api/v1/'s id filters refuse such values, and so does /ogc/.
  { url: `${FEATURES}?id=99999999999`, status: 400, body: invalidValue('id', INTEGER_RANGE) },
  { url: `${FEATURES}?site_id=99999999999`, status: 400, body: invalidValue('site_id', INTEGER_RANGE) },
  { url: `${IMAGES}?author_id=99999999999`, status: 400, body: invalidValue('author_id', INTEGER_RANGE) },
  { url: `${IMAGES}?feature_id=99999999999`, status: 400, body: invalidValue('feature_id', INTEGER_RANGE) },
  { url: `${FEATURES}?current=-2147483649`, status: 400, body: invalidValue('current', INTEGER_RANGE) },
  { url: '/api/v1/features/?site=99999999999', status: 400, body: { detail: 'Invalid site: expected an id (a whole number).' } },
  { url: '/api/v1/images/?author=99999999999', status: 400, body: { detail: 'Invalid author: expected an id (a whole number).' } },
  { url: '/api/v1/images/?feature=99999999999', status: 400, body: { detail: 'Invalid feature: expected an id (a whole number).' } },
  // NUL: refused naming the parameter, on every face (query-nul.test.ts walks every parameter);
  // inside CQL2-JSON, an escaped one is the filter reader's to refuse, with its path.
  { url: '/api/v1/features/?street=%00', status: 400, body: { detail: NUL_PARAMETER('street') } },
  { url: '/api/v1/features/?postcode=x%00', status: 400, body: { detail: NUL_PARAMETER('postcode') } },
  { url: '/api/v1/features/?tags=%00', status: 400, body: { detail: NUL_PARAMETER('tags') } },
  { url: '/api/v1/images/?tags=%00', status: 400, body: { detail: NUL_PARAMETER('tags') } },
  { url: '/map/matches.json?street=%00', status: 400, body: { detail: NUL_PARAMETER('street') } },
  { url: '/map/matches.json?tags=%00,a%00', status: 400, body: { detail: NUL_PARAMETER('tags') } },
  { url: `${FEATURES}?street=%00`, status: 400, body: ogcNul('street') },
  { url: `${FEATURES}?postcode=%00`, status: 400, body: ogcNul('postcode') },
  { url: `${FEATURES}?feature_type=PLACE%00`, status: 400, body: ogcNul('feature_type') },
  { url: `${IMAGES}?title=%00`, status: 400, body: ogcNul('title') },
  { url: filter("street='\u0000'"), status: 400, body: ogcNul('filter') },
  {
    url: jsonFilter('{"op":"=","args":[{"property":"street"},"\\u0000"]}'),
    status: 400,
    body: invalidFilter('The filter is invalid at $.args[1]: must not contain the NUL character (\\u0000).'),
  },
  // Numbers an integer property cannot hold, in CQL2.
  { url: filter('current=0.5'), status: 400, body: integerProperty('current', '0.5') },
  { url: filter('current=1e999'), status: 400, body: integerProperty('current', 'a number beyond 1.8e308') },
  { url: filter('id=1e20'), status: 400, body: integerProperty('id', '100000000000000000000') },
  { url: filter('current IN (1,2.5)'), status: 400, body: integerProperty('current', '2.5') },
  { url: filter('current BETWEEN 0.5 AND 1e999'), status: 400, body: integerProperty('current', '0.5') },
  { url: filter('site_id <> -2147483649'), status: 400, body: integerProperty('site_id', '-2147483649') },
  { url: jsonFilter('{"op":"<","args":[{"property":"image_count"},1e999]}'), status: 400, body: integerProperty('image_count', 'a number beyond 1.8e308') },
  { url: filter('1e999 > 0'), status: 400, body: invalidFilter('The filter holds a number beyond 1.8e308; numbers must be finite.') },
  // Forged cursors: keys no row of ours has.
  ...[['abc', 5], [true, 5], [1.5, 5], ['\u0000', 5], [2147483648, 5], [null, 5, 6]].map((keys) => ({
    url: `${FEATURES}?sortby=current&after=${cursor(keys)}`, status: 400, body: invalidValue('after', NOT_OUR_CURSOR),
  })),
  { url: `${FEATURES}?after=${cursor([2147483648])}`, status: 400, body: invalidValue('after', NOT_OUR_CURSOR) },
  { url: `${FEATURES}?sortby=street&before=${cursor(['a\u0000', 5])}`, status: 400, body: invalidValue('before', NOT_OUR_CURSOR) },
  { url: `${FEATURES}?sortby=postcode&after=${cursor([null, 5])}`, status: 400, body: invalidValue('after', NOT_OUR_CURSOR) },
  { url: `${IMAGES}?sortby=copyright&after=${cursor(['yes', 5])}`, status: 400, body: invalidValue('after', NOT_OUR_CURSOR) },
  { url: `${IMAGES}?sortby=created&after=${cursor(['2016-02-30', 5])}`, status: 400, body: invalidValue('after', NOT_OUR_CURSOR) },
  // Coordinates outside longitude and latitude (defect 8): SQLite matched nothing, PostgreSQL every footprint.
  {
    url: filter('S_INTERSECTS(geometry,POLYGON((-1e155 -1e155,1e155 -1e155,1e155 1e155,-1e155 1e155,-1e155 -1e155)))'),
    status: 400,
    body: invalidFilter(`The filter is invalid at line 1, column 32: the position [-1e+155, -1e+155] is not within ${RANGES}.`),
  },
  {
    url: filter('S_INTERSECTS(geometry,BBOX(1e308,1e308,-1e308,-1e308))'),
    status: 400,
    body: invalidFilter(`The filter is invalid at line 1, column 23: a BBOX is west, south, east, north within ${RANGES}, west ≤ east and south ≤ north, not [1e+308, 1e+308, -1e+308, -1e+308].`),
  },
  {
    // West and east swapped: SQLite's R*Tree found nothing, PostGIS the box between them.
    url: filter('S_INTERSECTS(geometry,BBOX(-0.065,51.5148,-0.0712,51.5185))'),
    status: 400,
    body: invalidFilter(`The filter is invalid at line 1, column 23: a BBOX is west, south, east, north within ${RANGES}, west ≤ east and south ≤ north, not [-0.065, 51.5148, -0.0712, 51.5185].`),
  },
  {
    url: jsonFilter('{"op":"s_intersects","args":[{"property":"geometry"},{"type":"Point","coordinates":[0,51.5,1e999]}]}'),
    status: 400,
    body: invalidFilter('The filter is invalid at $.args[1].coordinates: the height of the position [0, 51.5, Infinity] is not a finite number.'),
  },
  { url: `${FEATURES}?bbox=-0.07,51.51,-1e999,-0.06,51.52,1e999`, status: 400, body: invalidValue('bbox', 'four numbers west,south,east,north (or six, with the lowest and highest height) in longitude and latitude (CRS84), west ≤ east, south ≤ north') },
];

describe('values outside what a store holds', () => {
  for (const { url, status, body } of CASES) {
    test(`${url.slice(0, 120)} → ${status}`, async () => {
      const answer = await t.request(url);
      assert.equal(answer.status, status);
      assert.deepEqual(answer.json(), body);
    });
  }

  test('the same values within range are answered (no refusal past the checks)', async () => {
    for (const url of [
      `${FEATURES}?id=2147483647`, `${FEATURES}?current=-2147483648`, filter('current BETWEEN -2147483648 AND 2147483647'),
      filter('S_INTERSECTS(geometry,BBOX(-180,-90,180,90))'), filter("street = 'a\u0001'"), `${FEATURES}?sortby=current&after=${cursor([null, 5])}`,
    ]) {
      assert.equal((await t.request(url)).status, 200, url);
    }
    assert.equal((await t.request('/api/v1/features/2147483647/')).status, 404);
  });
});
