// The catalogue validator against catalogue-format.md and clarifications.md: every rule has
// a case that breaks it (and only it) in an otherwise valid catalogue.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogueValidator } from '../src/catalogue/validate.js';
import type { Catalogue, Problem, ValidationResult } from '../src/catalogue/format.js';

// One validator for every case: its schemas are compiled once.
const validator = new CatalogueValidator();
const parseCatalogueBytes = (bytes: Uint8Array): ValidationResult => validator.parseBytes(bytes);
const validateCatalogue = (value: unknown): ValidationResult => validator.validate(value);

/** A valid catalogue, fresh on each call: features[0] is a MultiPolygon, features[1] a Polygon. */
function validCatalogue() {
  return {
    format: 'heritage-catalogue/1',
    authors: [
      { id: 2, username: 'surveyoflondon' },
      { id: 5, username: 'local-history' },
    ],
    categories: [
      { id: 3, name: 'Pubs', description: '', thumbnail: 'categories/pubs.png' },
      { id: 4, name: 'Industry', description: 'Works', thumbnail: 'categories/industry.png' },
    ],
    sites: [{ id: 1, name: 'The Royal London Hospital' }],
    features: [
      {
        id: 366,
        feature_type: 'WHITECHAPEL_BUILDING',
        b_number: '12-14',
        b_name: 'Former Whitechapel electricity-generating station',
        street: 'Osborn Street',
        postcode: 'E1 6TD',
        address: '12-14 Osborn Street, London E1 6TD',
        current: 1898,
        site: 1,
        categories: [3, 4],
        tags: ['electricity', 'industry'],
        search_str: '12-14 Osborn Street',
        geometry: {
          type: 'MultiPolygon',
          coordinates: [[[[-0.0703927, 51.5168396], [-0.0704168, 51.5168711], [-0.0703309, 51.516897], [-0.0703927, 51.5168396]]]],
        },
      },
      {
        id: 12,
        feature_type: 'PLACE',
        b_number: null,
        b_name: null,
        street: 'Brick Lane',
        postcode: '',
        address: 'Brick Lane',
        current: null,
        site: null,
        categories: [],
        tags: [],
        geometry: {
          type: 'Polygon',
          coordinates: [[[-0.07, 51.52], [-0.071, 51.52], [-0.071, 51.521], [-0.07, 51.52]]],
        },
      },
    ],
    images: [
      { id: 7, feature: 366, author: 2, title: 'Street front, 1975', file: 'uploads/features/366/Osborn St 1975 (GLC).jpg', description: 'line one\nline two', copyright: true, created: '2016-06-01', published: true },
      { id: 8, feature: 12, author: 5, title: 'Market', file: 'uploads/features/12/market.jpg', description: '', copyright: false, created: null },
    ],
    documents: [
      { id: 971, feature: 366, author: 2, title: 'Former station', body: '<p>Built in 1898</p>', created: '2016-06-22', last_edited: '2017-02-21', published: true },
    ],
    media: [{ id: 4, feature: 366, author: 2, title: 'Walking Osborn Street', url: 'https://www.youtube.com/watch?v=abcdefghijk', published: false }],
  };
}

type FileValue = ReturnType<typeof validCatalogue>;
/** The catalogue as a test may break it: any key may be deleted or given any value. */
type Editable = Record<string, any>;

const encode = (text: string) => new TextEncoder().encode(text);
const validText = () => JSON.stringify(validCatalogue());

function problemsOf(result: ValidationResult): Problem[] {
  assert.equal(result.ok, false, 'expected the catalogue to be refused');
  return result.ok ? [] : result.problems;
}

function catalogueOf(result: ValidationResult): Catalogue {
  if (!result.ok) assert.fail(`expected a valid catalogue, got ${JSON.stringify(result.problems, null, 2)}`);
  return result.catalogue;
}

/** Exactly one problem, at `path`, its message holding `message`. */
function assertOneProblem(result: ValidationResult, path: string, message: string): void {
  const problems = problemsOf(result);
  assert.equal(problems.length, 1, `expected one problem, got ${JSON.stringify(problems, null, 2)}`);
  assert.equal(problems[0]!.path, path);
  assert.ok(problems[0]!.message.includes(message), `message ${JSON.stringify(problems[0]!.message)} lacks ${JSON.stringify(message)}`);
}

describe('parseCatalogueBytes refuses a bad file as a whole ($)', () => {
  const cases: { name: string; bytes: () => Uint8Array; message: string }[] = [
    { name: 'a UTF-8 byte-order mark', bytes: () => new Uint8Array([0xef, 0xbb, 0xbf, ...encode(validText())]), message: 'byte-order mark' },
    {
      name: 'invalid UTF-8',
      bytes: () => {
        const bytes = encode(validText().replace('Pubs', 'Pub?'));
        bytes[bytes.indexOf(0x3f)] = 0xff;
        return bytes;
      },
      message: 'not valid UTF-8',
    },
    { name: 'truncated JSON', bytes: () => encode(validText().slice(0, -2)), message: 'the file ends too early (truncated?)' },
    { name: 'JSON cut off after a key', bytes: () => encode(validText().slice(0, validText().indexOf('[', 10))), message: 'not valid JSON: Unexpected end of JSON input' },
    { name: 'JSON cut off inside a string', bytes: () => encode(validText().slice(0, validText().indexOf('Pubs'))), message: 'not valid JSON: Unterminated string' },
    { name: 'trailing data', bytes: () => encode(`${validText()}\n{}`), message: 'not valid JSON: Unexpected non-whitespace character' },
    { name: 'a JSON syntax error', bytes: () => encode(validText().replace('"sites":', '"sites"')), message: 'not valid JSON' },
    { name: 'an empty file', bytes: () => new Uint8Array(), message: 'not valid JSON' },
    { name: 'a top level that is a list', bytes: () => encode(`[${validText()}]`), message: 'the top level must be a JSON object, not a list' },
    { name: 'a top level that is null', bytes: () => encode('null'), message: 'the top level must be a JSON object, not null' },
    {
      // What a GIS exports: one problem saying what the file is and how to make a catalogue, not one per feature and key.
      name: 'a plain GeoJSON FeatureCollection',
      bytes: () => encode(JSON.stringify({
        type: 'FeatureCollection',
        features: Array.from({ length: 30 }, (_, i) => ({ type: 'Feature', id: i + 1, geometry: { type: 'Point', coordinates: [-0.07, 51.5] }, properties: { name: `B${i}` } })),
      })),
      message: 'this is a plain GeoJSON FeatureCollection, not a heritage catalogue. A catalogue is one JSON object with "format": "heritage-catalogue/1"',
    },
  ];
  for (const { name, bytes, message } of cases) {
    test(name, () => assertOneProblem(parseCatalogueBytes(bytes()), '$', message));
  }
});

describe('parseCatalogueBytes accepts', () => {
  test('a valid file, with the same catalogue validateCatalogue gives', () => {
    assert.deepEqual(catalogueOf(parseCatalogueBytes(encode(validText()))), catalogueOf(validateCatalogue(validCatalogue())));
  });

  test('1898.0 where an integer is required, as 1898', () => {
    const text = validText().replace('"current":1898', '"current":1898.0');
    assert.ok(text.includes('1898.0'));
    assert.equal(catalogueOf(parseCatalogueBytes(encode(text))).features[0]!.current, 1898);
  });

  test('coordinates exactly as written, to the last digit', () => {
    const text = validText().replace('-0.0704168', '-0.07041680000000001234').replace('51.5168711', '51.516871100000000000001');
    const ring = catalogueOf(parseCatalogueBytes(encode(text))).features[0]!.geometry.coordinates[0]![0]!;
    assert.ok(Object.is(ring[1]![0], -0.07041680000000001234) && Object.is(ring[1]![1], 51.516871100000000000001));
  });
});

interface RefusalCase {
  name: string;
  /** Breaks exactly one rule of the valid catalogue. */
  mutate: (c: Editable) => void;
  path: string;
  message: string;
}

const ring = (c: Editable) => c['features'][0].geometry.coordinates[0][0];
const polygonRing = (c: Editable) => c['features'][1].geometry.coordinates[0];

const refusals: RefusalCase[] = [
  // top level
  { name: 'a wrong format', mutate: (c) => (c['format'] = 'heritage-catalogue/2'), path: 'format', message: 'must be "heritage-catalogue/1", not "heritage-catalogue/2"' },
  { name: 'a format that is not a string', mutate: (c) => (c['format'] = 1), path: 'format', message: 'must be "heritage-catalogue/1", not 1' },
  { name: 'a missing top-level key', mutate: (c) => delete c['media'], path: 'media', message: 'required key "media" is missing' },
  { name: 'a missing format', mutate: (c) => delete c['format'], path: 'format', message: 'required key "format" is missing' },
  { name: 'an unknown top-level key', mutate: (c) => (c['colour'] = 'red'), path: 'colour', message: 'unknown key "colour"' },
  { name: 'a top-level list that is not a list', mutate: (c) => (c['sites'] = {}), path: 'sites', message: 'must be a list, not an object' },
  { name: 'a record that is not an object', mutate: (c) => (c['sites'][0] = 1), path: 'sites[0]', message: 'must be an object, not 1' },
  // keys of records
  { name: 'an unknown feature key', mutate: (c) => (c['features'][0].colour = 'red'), path: 'features[0].colour', message: 'unknown key "colour"' },
  { name: 'an unknown image key', mutate: (c) => (c['images'][1].caption = ''), path: 'images[1].caption', message: 'unknown key "caption"' },
  { name: 'an unknown author key', mutate: (c) => (c['authors'][0].email = 'a@b'), path: 'authors[0].email', message: 'unknown key "email"' },
  { name: 'a missing record key', mutate: (c) => delete c['features'][0].street, path: 'features[0].street', message: 'required key "street" is missing' },
  { name: 'a missing document key', mutate: (c) => delete c['documents'][0].body, path: 'documents[0].body', message: 'required key "body" is missing' },
  // ids
  { name: 'a duplicate id', mutate: (c) => (c['images'][1].id = 7), path: 'images[1].id', message: 'duplicate id 7: images[0] has it too' },
  { name: 'a duplicate site id', mutate: (c) => c['sites'].push({ id: 1, name: 'Another' }), path: 'sites[1].id', message: 'duplicate id 1: sites[0] has it too' },
  { name: 'an id of 0', mutate: (c) => (c['sites'][0].id = 0), path: 'sites[0].id', message: 'must be a positive integer, not 0' },
  { name: 'a negative id', mutate: (c) => (c['media'][0].id = -4), path: 'media[0].id', message: 'must be a positive integer' },
  { name: 'an id beyond the safe integers', mutate: (c) => (c['documents'][0].id = 2 ** 53), path: 'documents[0].id', message: 'must be a safe integer' },
  { name: 'an id with a fraction', mutate: (c) => (c['authors'][1].id = 5.5), path: 'authors[1].id', message: 'must be an integer, not 5.5' },
  { name: 'an id that is a string', mutate: (c) => (c['categories'][0].id = '3x'), path: 'categories[0].id', message: 'must be an integer, not "3x"' },
  // integers
  { name: 'current of 1898.5', mutate: (c) => (c['features'][0].current = 1898.5), path: 'features[0].current', message: 'must be an integer or null, not 1898.5' },
  { name: 'a reference with a fraction', mutate: (c) => (c['images'][0].feature = 366.5), path: 'images[0].feature', message: 'must be an integer, not 366.5' },
  // references
  { name: 'a dangling feature reference', mutate: (c) => (c['images'][0].feature = 999), path: 'images[0].feature', message: 'there is no feature with id 999' },
  { name: 'a dangling author reference', mutate: (c) => (c['documents'][0].author = 6), path: 'documents[0].author', message: 'there is no author with id 6' },
  { name: 'a dangling media feature reference', mutate: (c) => (c['media'][0].feature = 13), path: 'media[0].feature', message: 'there is no feature with id 13' },
  { name: 'a dangling site reference', mutate: (c) => (c['features'][1].site = 2), path: 'features[1].site', message: 'there is no site with id 2' },
  { name: 'a dangling category reference', mutate: (c) => (c['features'][0].categories = [3, 9]), path: 'features[0].categories[1]', message: 'there is no category with id 9' },
  { name: 'the same category twice in a feature', mutate: (c) => (c['features'][0].categories = [4, 3, 4]), path: 'features[0].categories[2]', message: 'category 4 is listed twice' },
  { name: 'a category reference that is not an integer', mutate: (c) => (c['features'][0].categories = ['3']), path: 'features[0].categories[0]', message: 'must be an integer' },
  // authors
  { name: 'a duplicate username', mutate: (c) => (c['authors'][1].username = 'surveyoflondon'), path: 'authors[1].username', message: 'duplicate username "surveyoflondon"' },
  { name: 'an empty username', mutate: (c) => (c['authors'][0].username = ''), path: 'authors[0].username', message: 'must not be empty' },
  // feature fields
  { name: 'an unknown feature_type', mutate: (c) => (c['features'][0].feature_type = 'HOUSE'), path: 'features[0].feature_type', message: 'must be one of "WHITECHAPEL_BUILDING", "GREATER_WHITECHAPEL", "PLACE" or "OPEN_SPACE", not "HOUSE"' },
  { name: 'a nullable string of another type', mutate: (c) => (c['features'][0].b_name = 5), path: 'features[0].b_name', message: 'must be a string or null, not 5' },
  { name: 'a null postcode', mutate: (c) => (c['features'][0].postcode = null), path: 'features[0].postcode', message: 'must be a string, not null' },
  { name: 'tags holding a number', mutate: (c) => (c['features'][0].tags = ['a', 2]), path: 'features[0].tags[1]', message: 'must be a string, not 2' },
  { name: 'tags that are not a list', mutate: (c) => (c['features'][0].tags = 'a,b'), path: 'features[0].tags', message: 'must be a list' },
  { name: 'a null search_str', mutate: (c) => (c['features'][0].search_str = null), path: 'features[0].search_str', message: 'must be a string when present' },
  { name: 'a null published', mutate: (c) => (c['images'][0].published = null), path: 'images[0].published', message: 'must be a boolean when present' },
  { name: 'a published that is a string', mutate: (c) => (c['media'][0].published = 'no'), path: 'media[0].published', message: 'must be a boolean' },
  // geometry
  { name: 'a Point geometry', mutate: (c) => (c['features'][0].geometry = { type: 'Point', coordinates: [-0.07, 51.5] }), path: 'features[0].geometry.type', message: 'must be "MultiPolygon" or "Polygon", not "Point"' },
  { name: 'a geometry without a type', mutate: (c) => delete c['features'][0].geometry.type, path: 'features[0].geometry.type', message: 'required key "type" is missing' },
  { name: 'a geometry that is not an object', mutate: (c) => (c['features'][0].geometry = null), path: 'features[0].geometry', message: 'must be an object, not null' },
  { name: 'a bbox key in a geometry', mutate: (c) => (c['features'][0].geometry.bbox = [0, 0, 1, 1]), path: 'features[0].geometry.bbox', message: 'unknown key "bbox"' },
  { name: 'a crs key in a Polygon', mutate: (c) => (c['features'][1].geometry.crs = {}), path: 'features[1].geometry.crs', message: 'unknown key "crs"' },
  { name: 'missing coordinates', mutate: (c) => delete c['features'][0].geometry.coordinates, path: 'features[0].geometry.coordinates', message: 'required key "coordinates" is missing' },
  { name: 'an empty MultiPolygon', mutate: (c) => (c['features'][0].geometry.coordinates = []), path: 'features[0].geometry.coordinates', message: 'a MultiPolygon must have at least one polygon' },
  { name: 'a polygon with no rings', mutate: (c) => c['features'][0].geometry.coordinates.push([]), path: 'features[0].geometry.coordinates[1]', message: 'a polygon must have at least one ring' },
  { name: 'a Polygon with no rings', mutate: (c) => (c['features'][1].geometry.coordinates = []), path: 'features[1].geometry.coordinates', message: 'a polygon must have at least one ring' },
  { name: 'a ring of 3 positions', mutate: (c) => ring(c).splice(1, 1), path: 'features[0].geometry.coordinates[0][0]', message: 'a ring must have at least 4 positions (it has 3)' },
  { name: 'an unclosed ring', mutate: (c) => (ring(c)[3] = [-0.0703927, 51.5168397]), path: 'features[0].geometry.coordinates[0][0]', message: 'ring is not closed' },
  { name: 'an unclosed ring of a Polygon, in the file nesting', mutate: (c) => (polygonRing(c)[3] = [-0.07, 51.53]), path: 'features[1].geometry.coordinates[0]', message: 'ring is not closed' },
  { name: 'a ring that is not a list', mutate: (c) => (c['features'][1].geometry.coordinates[0] = 'ring'), path: 'features[1].geometry.coordinates[0]', message: 'must be a list' },
  { name: 'a position of 3 numbers', mutate: (c) => ring(c)[1].push(12.5), path: 'features[0].geometry.coordinates[0][0][1]', message: 'a position must be exactly two numbers' },
  { name: 'a position of 1 number', mutate: (c) => ring(c)[2].pop(), path: 'features[0].geometry.coordinates[0][0][2]', message: 'a position must be exactly two numbers' },
  { name: 'a position that is not a list', mutate: (c) => (ring(c)[1] = { lon: 0, lat: 0 }), path: 'features[0].geometry.coordinates[0][0][1]', message: 'a position must be exactly two numbers' },
  { name: 'a longitude that is a string', mutate: (c) => (ring(c)[1][0] = '-0.07'), path: 'features[0].geometry.coordinates[0][0][1][0]', message: 'longitude must be a finite number, not "-0.07"' },
  { name: 'a NaN longitude', mutate: (c) => (ring(c)[1][0] = NaN), path: 'features[0].geometry.coordinates[0][0][1][0]', message: 'longitude must be a finite number, not NaN' },
  { name: 'an infinite latitude', mutate: (c) => (ring(c)[2][1] = -Infinity), path: 'features[0].geometry.coordinates[0][0][2][1]', message: 'latitude must be a finite number' },
  { name: 'a longitude above 180', mutate: (c) => (ring(c)[1][0] = 180.0000001), path: 'features[0].geometry.coordinates[0][0][1][0]', message: 'longitude must be within [-180, 180], not 180.0000001' },
  { name: 'a longitude below -180', mutate: (c) => (ring(c)[2][0] = -181), path: 'features[0].geometry.coordinates[0][0][2][0]', message: 'longitude must be within [-180, 180]' },
  { name: 'a latitude above 90', mutate: (c) => (ring(c)[1][1] = 90.5), path: 'features[0].geometry.coordinates[0][0][1][1]', message: 'latitude must be within [-90, 90], not 90.5' },
  { name: 'a latitude below -90', mutate: (c) => (ring(c)[2][1] = -91), path: 'features[0].geometry.coordinates[0][0][2][1]', message: 'latitude must be within [-90, 90]' },
  { name: "a Polygon's bad position, in the file nesting", mutate: (c) => (polygonRing(c)[2][1] = 95), path: 'features[1].geometry.coordinates[0][2][1]', message: 'latitude must be within [-90, 90]' },
  { name: "a Polygon's short ring, in the file nesting", mutate: (c) => polygonRing(c).splice(1, 1), path: 'features[1].geometry.coordinates[0]', message: 'at least 4 positions' },
  // dates
  { name: 'a date in another form', mutate: (c) => (c['documents'][0].created = '22/06/2016'), path: 'documents[0].created', message: 'must be a date in the form YYYY-MM-DD, not "22/06/2016"' },
  { name: 'a date without leading zeros', mutate: (c) => (c['images'][0].created = '2016-6-1'), path: 'images[0].created', message: 'must be a date in the form YYYY-MM-DD' },
  { name: 'a date with a time', mutate: (c) => (c['documents'][0].last_edited = '2017-02-21T10:00:00Z'), path: 'documents[0].last_edited', message: 'must be a date in the form YYYY-MM-DD' },
  { name: '30 February', mutate: (c) => (c['documents'][0].last_edited = '2016-02-30'), path: 'documents[0].last_edited', message: '"2016-02-30" is not a real calendar date' },
  { name: '29 February of a common year', mutate: (c) => (c['images'][0].created = '2015-02-29'), path: 'images[0].created', message: 'is not a real calendar date' },
  { name: 'month 13', mutate: (c) => (c['images'][0].created = '2016-13-01'), path: 'images[0].created', message: 'is not a real calendar date' },
  { name: 'a null document created', mutate: (c) => (c['documents'][0].created = null), path: 'documents[0].created', message: 'must be a date in the form YYYY-MM-DD, not null' },
  { name: 'a null document last_edited', mutate: (c) => (c['documents'][0].last_edited = null), path: 'documents[0].last_edited', message: 'must be a date' },
  { name: 'an image created that is a number', mutate: (c) => (c['images'][0].created = 2016), path: 'images[0].created', message: 'must be a date in the form YYYY-MM-DD or null, not 2016' },
  // media url
  { name: 'a relative media url', mutate: (c) => (c['media'][0].url = '/watch?v=abcdefghijk'), path: 'media[0].url', message: 'must be an absolute http(s) URL' },
  { name: 'an ftp media url', mutate: (c) => (c['media'][0].url = 'ftp://example.org/film.mp4'), path: 'media[0].url', message: 'must be an http(s) URL, not ftp:' },
  { name: 'a media url without "//"', mutate: (c) => (c['media'][0].url = 'https:www.youtube.com'), path: 'media[0].url', message: 'must be an absolute http(s) URL' },
  { name: 'a media url with a space', mutate: (c) => (c['media'][0].url = 'https://www.youtube.com/watch?v=a b'), path: 'media[0].url', message: 'must not contain spaces' },
  { name: 'a media url that does not parse', mutate: (c) => (c['media'][0].url = 'https://exa[mple.com/'), path: 'media[0].url', message: 'is not a valid URL' },
  { name: 'an empty media url', mutate: (c) => (c['media'][0].url = ''), path: 'media[0].url', message: 'must be an absolute http(s) URL' },
  // media-root paths
  { name: 'an empty file', mutate: (c) => (c['images'][0].file = ''), path: 'images[0].file', message: 'must not be empty' },
  { name: 'an absolute file', mutate: (c) => (c['images'][0].file = '/uploads/a.jpg'), path: 'images[0].file', message: 'no leading "/"' },
  { name: 'a file with a backslash', mutate: (c) => (c['images'][0].file = 'uploads\\a.jpg'), path: 'images[0].file', message: 'no backslash' },
  { name: 'a file with an empty segment', mutate: (c) => (c['images'][0].file = 'uploads//a.jpg'), path: 'images[0].file', message: 'must not have an empty segment' },
  { name: 'a file with a trailing "/"', mutate: (c) => (c['images'][0].file = 'uploads/'), path: 'images[0].file', message: 'must not have an empty segment' },
  { name: 'a file with a "." segment', mutate: (c) => (c['images'][0].file = 'uploads/./a.jpg'), path: 'images[0].file', message: 'must not have a "." segment' },
  { name: 'a file with a ".." segment', mutate: (c) => (c['images'][0].file = 'uploads/../a.jpg'), path: 'images[0].file', message: 'must not have a ".." segment' },
  { name: 'an empty thumbnail', mutate: (c) => (c['categories'][1].thumbnail = ''), path: 'categories[1].thumbnail', message: 'must not be empty' },
  { name: 'an absolute thumbnail', mutate: (c) => (c['categories'][1].thumbnail = '/categories/a.png'), path: 'categories[1].thumbnail', message: 'no leading "/"' },
  { name: 'a thumbnail with a backslash', mutate: (c) => (c['categories'][1].thumbnail = 'categories\\a.png'), path: 'categories[1].thumbnail', message: 'no backslash' },
  { name: 'a thumbnail with an empty segment', mutate: (c) => (c['categories'][1].thumbnail = 'categories//a.png'), path: 'categories[1].thumbnail', message: 'empty segment' },
  { name: 'a thumbnail with a "." segment', mutate: (c) => (c['categories'][1].thumbnail = './a.png'), path: 'categories[1].thumbnail', message: 'must not have a "." segment' },
  { name: 'a thumbnail with a ".." segment', mutate: (c) => (c['categories'][1].thumbnail = '../a.png'), path: 'categories[1].thumbnail', message: 'must not have a ".." segment' },
  { name: 'a thumbnail that is null', mutate: (c) => (c['categories'][1].thumbnail = null), path: 'categories[1].thumbnail', message: 'must be a string, not null' },
  // other fields
  { name: 'a copyright that is not a boolean', mutate: (c) => (c['images'][0].copyright = 'yes'), path: 'images[0].copyright', message: 'must be a boolean, not "yes"' },
  { name: 'a null description', mutate: (c) => (c['images'][1].description = null), path: 'images[1].description', message: 'must be a string, not null' },
  { name: 'a document body that is a list', mutate: (c) => (c['documents'][0].body = ['<p>']), path: 'documents[0].body', message: 'must be a string, not a list' },
];

describe('validateCatalogue refuses a catalogue that breaks one rule, with exactly one problem', () => {
  for (const { name, mutate, path, message } of refusals) {
    test(name, () => {
      const catalogue: Editable = validCatalogue();
      mutate(catalogue);
      assertOneProblem(validateCatalogue(catalogue), path, message);
    });
  }

  test('the same, read from bytes', () => {
    const catalogue: Editable = validCatalogue();
    catalogue['features'][0].current = 1898.5;
    assertOneProblem(parseCatalogueBytes(encode(JSON.stringify(catalogue))), 'features[0].current', 'must be an integer');
  });
});

describe('validateCatalogue lists every problem of a file', () => {
  test('several problems, all of them, in the order of the file', () => {
    const c: Editable = validCatalogue();
    c['media'][0].url = 'ftp://x';
    c['features'][1].geometry.coordinates[0][3] = [0, 0];
    c['format'] = 'x';
    c['features'][0].colour = 'red';
    c['features'][0].current = 1898.5;
    c['authors'][1].username = '';
    delete c['sites'];
    c['images'][0].feature = 1;
    assert.deepEqual(
      problemsOf(validateCatalogue(c)).map(({ path }) => path),
      [
        'format',
        'authors[1].username',
        'features[0].current',
        'features[0].colour',
        'features[1].geometry.coordinates[0]',
        'images[0].feature',
        'media[0].url',
        'sites',
      ],
    );
  });

  test('the same problem in many places, once per place', () => {
    const c: Editable = validCatalogue();
    c['images'].forEach((image: Editable) => (image.copyright = 1));
    assert.deepEqual(problemsOf(validateCatalogue(c)), [
      { path: 'images[0].copyright', message: 'must be a boolean, not 1' },
      { path: 'images[1].copyright', message: 'must be a boolean, not 1' },
    ]);
  });

  test('references into a list that is missing are not each reported', () => {
    const c: Editable = validCatalogue();
    delete c['features'];
    assert.deepEqual(problemsOf(validateCatalogue(c)), [{ path: 'features', message: 'required key "features" is missing' }]);
  });

  test('an unknown key that is not a word is quoted', () => {
    const c: Editable = validCatalogue();
    c['features'][0]['b name'] = '';
    assertOneProblem(validateCatalogue(c), 'features[0]["b name"]', 'unknown key "b name"');
  });
});

describe('validateCatalogue accepts and normalises', () => {
  test('the valid catalogue, into exactly the normalised form', () => {
    const catalogue = catalogueOf(validateCatalogue(validCatalogue()));
    const expected: FileValue = validCatalogue();
    assert.deepEqual(catalogue, {
      ...expected,
      features: [
        expected.features[0],
        {
          ...expected.features[1],
          search_str: 'Brick Lane Brick Lane',
          geometry: { type: 'MultiPolygon', coordinates: [expected.features[1]!.geometry.coordinates] },
        },
      ],
      images: [expected.images[0], { ...expected.images[1], published: true }],
    });
  });

  test('a Polygon is promoted to a one-polygon MultiPolygon', () => {
    const geometry = catalogueOf(validateCatalogue(validCatalogue())).features[1]!.geometry;
    assert.deepEqual(geometry, { type: 'MultiPolygon', coordinates: [[[[-0.07, 51.52], [-0.071, 51.52], [-0.071, 51.521], [-0.07, 51.52]]]] });
  });

  test('an absent search_str is the non-empty parts of b_number, b_name, street, address', () => {
    const c: Editable = validCatalogue();
    delete c['features'][0].search_str;
    c['features'][0].b_name = '';
    const feature = catalogueOf(validateCatalogue(c)).features[0]!;
    assert.equal(feature.search_str, '12-14 Osborn Street 12-14 Osborn Street, London E1 6TD');
  });

  test('a given search_str is kept, even an empty one', () => {
    const c: Editable = validCatalogue();
    c['features'][0].search_str = '';
    assert.equal(catalogueOf(validateCatalogue(c)).features[0]!.search_str, '');
  });

  test('an absent published is true; a given one is kept', () => {
    const c: Editable = validCatalogue();
    delete c['documents'][0].published;
    const catalogue = catalogueOf(validateCatalogue(c));
    assert.deepEqual(
      [catalogue.images[1]!.published, catalogue.documents[0]!.published, catalogue.media[0]!.published],
      [true, true, false],
    );
  });

  const acceptances: { name: string; mutate: (c: Editable) => void }[] = [
    { name: 'OPEN_SPACE, the fourth feature type', mutate: (c) => (c['features'][1].feature_type = 'OPEN_SPACE') },
    { name: 'GREATER_WHITECHAPEL with null fields', mutate: (c) => Object.assign(c['features'][0], { feature_type: 'GREATER_WHITECHAPEL', b_number: null, b_name: null, street: null, current: null, site: null }) },
    { name: 'last_edited before created', mutate: (c) => Object.assign(c['documents'][0], { created: '2017-02-21', last_edited: '2016-06-22' }) },
    { name: '29 February of a leap year', mutate: (c) => (c['images'][0].created = '2016-02-29') },
    { name: 'a media url with non-ASCII characters', mutate: (c) => (c['media'][0].url = 'https://de.wikipedia.org/wiki/Straße_in_Köln') },
    { name: 'an http media url', mutate: (c) => (c['media'][0].url = 'http://example.org/film') },
    { name: 'a media-root path with spaces, brackets and non-ASCII', mutate: (c) => (c['images'][0].file = 'uploads/Café (1975)/a b.jpg') },
    { name: 'a media-root path of one segment with dots in it', mutate: (c) => (c['categories'][0].thumbnail = '..pubs.png') },
    { name: 'empty lists', mutate: (c) => ['authors', 'categories', 'sites', 'features', 'images', 'documents', 'media'].forEach((key) => (c[key] = [])) },
    { name: 'positions on the limits of the ranges', mutate: (c) => (c['features'][1].geometry.coordinates = [[[-180, -90], [180, -90], [180, 90], [-180, -90]]]) },
    { name: 'a polygon with a hole, either orientation', mutate: (c) => c['features'][1].geometry.coordinates.push([[-0.0705, 51.5205], [-0.0705, 51.5206], [-0.0706, 51.5206], [-0.0705, 51.5205]]) },
    { name: 'a MultiPolygon of two polygons', mutate: (c) => c['features'][0].geometry.coordinates.push(c['features'][1].geometry.coordinates) },
    { name: 'ids that are not in order', mutate: (c) => c['features'].reverse() },
    { name: 'the same id in different lists', mutate: (c) => (c['media'][0].id = 7) },
  ];
  for (const { name, mutate } of acceptances) {
    test(name, () => {
      const c: Editable = validCatalogue();
      mutate(c);
      catalogueOf(validateCatalogue(c));
    });
  }

  test('lists keep their order', () => {
    const c: Editable = validCatalogue();
    c['features'].reverse();
    assert.deepEqual(catalogueOf(validateCatalogue(c)).features.map((f) => f.id), [12, 366]);
  });

  test('the catalogue shares nothing with its input', () => {
    const c: Editable = validCatalogue();
    const catalogue = catalogueOf(validateCatalogue(c));
    c['features'][0].geometry.coordinates[0][0][0][0] = 0;
    c['features'][0].categories.push(9);
    c['images'][0].title = 'changed';
    assert.equal(catalogue.features[0]!.geometry.coordinates[0]![0]![0]![0], -0.0703927);
    assert.deepEqual(catalogue.features[0]!.categories, [3, 4]);
    assert.equal(catalogue.images[0]!.title, 'Street front, 1975');
  });

  test('coordinates keep every bit, -0 included', () => {
    const c: Editable = validCatalogue();
    c['features'][1].geometry.coordinates = [[[-0, 51.52], [-0.071, 51.52], [0.1 + 0.2, 51.521], [-0, 51.52]]];
    const ring = catalogueOf(validateCatalogue(c)).features[1]!.geometry.coordinates[0]![0]!;
    assert.ok(Object.is(ring[0]![0], -0));
    assert.ok(Object.is(ring[2]![0], 0.1 + 0.2));
  });
});
