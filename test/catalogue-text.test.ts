// What only a catalogue file's text shows (issue 15): a key given twice at any depth, NUL and
// lone surrogates in strings and keys, the record size limits, and messages that name the
// real key and cut long ones. Files are written as text here, since JSON.stringify could not
// write most of them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogueValidator, parseCatalogueBytes, validateCatalogue } from '../src/catalogue/validate.js';
import { DEFAULT_CATALOGUE_LIMITS, type CatalogueLimits } from '../src/catalogue/limits.js';
import type { Problem, ValidationResult } from '../src/catalogue/format.js';

const AUTHOR = '{"id":2,"username":"surveyoflondon"}';
const RING = '[[-0.07,51.52],[-0.071,51.52],[-0.071,51.521],[-0.07,51.52]]';
const feature = (geometry = `{"type":"Polygon","coordinates":[${RING}]}`, extra = '') =>
  `{"id":12,"feature_type":"PLACE","b_number":null,"b_name":null,"street":"Brick Lane","postcode":"","address":"Brick Lane","current":null,"site":null,"categories":[],"tags":[]${extra},"geometry":${geometry}}`;
const DOCUMENT = (body: string, extra = '') =>
  `{"id":971,"feature":12,"author":2,"title":"Former station","body":"${body}","created":"2016-06-22","last_edited":"2017-02-21"${extra}}`;

/** A whole file around the given records (text, exactly as written). */
function file(parts: { authors?: string; features?: string; documents?: string; head?: string } = {}): string {
  return `{${parts.head ?? ''}"format":"heritage-catalogue/1","authors":[${parts.authors ?? AUTHOR}],"categories":[],"sites":[],`
    + `"features":[${parts.features ?? feature()}],"images":[],"documents":[${parts.documents ?? DOCUMENT('<p>Built in 1898</p>')}],"media":[]}`;
}

/** One validator for the default limits, as a command has one: each compiles the schemas (about 0.1 s). */
const validator = new CatalogueValidator();
const check = (text: string, limits?: CatalogueLimits): ValidationResult => (limits === undefined ? validator.parseBytes(Buffer.from(text)) : parseCatalogueBytes(Buffer.from(text), limits));

function problems(result: ValidationResult): Problem[] {
  assert.equal(result.ok, false, 'expected the file to be refused');
  return result.ok ? [] : result.problems;
}

function assertOnly(result: ValidationResult, path: string, message: string | RegExp): void {
  const list = problems(result);
  assert.equal(list.length, 1, JSON.stringify(list, null, 2));
  assert.equal(list[0]!.path, path);
  if (typeof message === 'string') assert.ok(list[0]!.message.includes(message), list[0]!.message);
  else assert.match(list[0]!.message, message);
}

test('the file these tests start from is valid', () => {
  assert.equal(check(file()).ok, true, JSON.stringify(check(file())));
});

describe('a key given twice is refused at any depth, with its path', () => {
  const cases: { name: string; text: string; path: string }[] = [
    { name: 'published false then true, in a document', text: file({ documents: DOCUMENT('x', ',"published":false,"published":true') }), path: 'documents[0].published' },
    { name: 'the same value twice, in an author', text: file({ authors: '{"id":2,"username":"a","username":"a"}' }), path: 'authors[0].username' },
    { name: 'in a geometry object', text: file({ features: feature(`{"type":"Polygon","type":"Polygon","coordinates":[${RING}]}`) }), path: 'features[0].geometry.type' },
    { name: 'in an object nested in a list', text: file({ features: feature(undefined, ',"search_str":"a"').replace('"tags":[]', '"tags":[{"a":1,"a":2}]') }), path: 'features[0].tags[0].a' },
    { name: 'in a top-level value that is not a list', text: file({ head: '"colour":{"x":1,"x":2},' }), path: 'colour.x' },
  ];
  for (const { name, text, path } of cases) {
    test(name, () => {
      const found = problems(check(text));
      const twice = found.filter((p) => p.message.includes('is given twice'));
      assert.deepEqual(twice.map((p) => p.path), [path], JSON.stringify(found));
      assert.match(twice[0]!.message, /^the key "[a-z_]+" is given twice/);
    });
  }

  test('the same key in two different objects is fine', () => {
    assert.equal(check(file({ documents: `${DOCUMENT('a')},${DOCUMENT('b').replace('971', '972')}` })).ok, true);
  });
});

describe('NUL and lone surrogates are refused in any string, with the path', () => {
  const cases: { name: string; text: string; path: string; message: string }[] = [
    { name: 'an escaped NUL in a value', text: file({ documents: DOCUMENT('a\\u0000b') }), path: 'documents[0].body', message: 'NUL character' },
    { name: 'an escaped NUL in a key', text: file({ authors: '{"id":2,"username":"a","x\\u0000":1}' }), path: 'authors[0]["x\\u0000"]', message: 'NUL character' },
    { name: 'a lone high surrogate', text: file({ documents: DOCUMENT('a\\ud800b') }), path: 'documents[0].body', message: 'lone UTF-16 surrogate' },
    { name: 'a lone low surrogate at the end', text: file({ authors: '{"id":2,"username":"a\\udc00"}' }), path: 'authors[0].username', message: 'lone UTF-16 surrogate' },
    { name: 'surrogates in the wrong order', text: file({ documents: DOCUMENT('\\udc00\\ud800') }), path: 'documents[0].body', message: 'lone UTF-16 surrogate' },
    { name: 'a NUL in a top-level value', text: file({ head: '"colour":"\\u0000",' }), path: 'colour', message: 'NUL character' },
  ];
  for (const { name, text, path, message } of cases) {
    test(name, () => {
      const found = problems(check(text)).filter((p) => p.path === path);
      assert.equal(found.length, 1, JSON.stringify(problems(check(text))));
      assert.ok(found[0]!.message.includes(message), found[0]!.message);
    });
  }

  test('a raw NUL is not JSON: the file is refused whole', () => {
    assertOnly(check(file({ documents: DOCUMENT('a\u0000b') })), '$', 'not valid JSON');
  });

  test('a parsed catalogue (harvest) is held to the same rule', () => {
    const value = JSON.parse(file());
    value.documents[0].title = 'a\u0000b';
    value.authors[0].username = 'x\ud800';
    assert.deepEqual(problems(validateCatalogue(value)).map((p) => p.path), ['authors[0].username', 'documents[0].title']);
  });

  test('a pair of surrogates (an emoji), escaped or not, is a character like any other', () => {
    const result = check(file({ documents: DOCUMENT('\\ud83c\\udfdb\u{1F3DB}') }));
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.catalogue.documents[0]!.body, '\u{1F3DB}\u{1F3DB}');
  });
});

describe('messages name the real problem and the real key, cut when long', () => {
  test('a coordinate of 1e400 is one problem, not also an unclosed ring', () => {
    const ring = '[[1e400,51.52],[-0.071,51.52],[-0.071,51.521],[-0.07,51.52]]';
    assertOnly(check(file({ features: feature(`{"type":"Polygon","coordinates":[${ring}]}`) })), 'features[0].geometry.coordinates[0][0][0]', 'longitude must be a finite number');
  });

  test('a last position out of range is one problem, not also an unclosed ring', () => {
    const ring = '[[-0.07,51.52],[-0.071,51.52],[-0.071,51.521],[-0.07,91]]';
    assertOnly(check(file({ features: feature(`{"type":"Polygon","coordinates":[${ring}]}`) })), 'features[0].geometry.coordinates[0][3][1]', 'latitude must be within');
  });

  test('a top-level "__proto__" key is named as itself', () => {
    assertOnly(check(file({ head: '"__proto__":{"x":1},' })), '__proto__', 'unknown key "__proto__"');
  });

  test('a "__proto__" key in a record is named as itself', () => {
    assertOnly(check(file({ authors: '{"id":2,"username":"a","__proto__":{"id":3}}' })), 'authors[0].__proto__', 'unknown key "__proto__"');
  });

  test('a long unknown key is cut to 100 characters, with its length', () => {
    const key = 'k'.repeat(5000);
    const found = problems(check(file({ authors: `{"id":2,"username":"a","${key}":1}` })));
    assert.equal(found.length, 1);
    assert.equal(found[0]!.path, `authors[0]["${'k'.repeat(100)}…"]`);
    assert.equal(found[0]!.message, `unknown key "${'k'.repeat(100)}…" (5,000 characters)`);
  });

  test('a 10 MB key gives a short message naming the limit', () => {
    const key = 'k'.repeat(10_000_000);
    const found = problems(check(file({ authors: `{"id":2,"username":"a","${key}":1}` }), { ...DEFAULT_CATALOGUE_LIMITS, maxRecordBytes: 20_000_000 }));
    assert.equal(found.length, 1, JSON.stringify(found).slice(0, 500));
    assert.ok(found[0]!.path.length < 120 && found[0]!.message.length < 400, found[0]!.message);
    assert.match(found[0]!.message, /has 10,000,000 characters: the limit is 50,000 characters \(--max-string-chars, CATALOGUE_MAX_STRING_CHARS\)/);
  });

  test('a long duplicate username is cut', () => {
    const name = 'u'.repeat(1000);
    const found = problems(check(file({ authors: `{"id":2,"username":"${name}"},{"id":3,"username":"${name}"}` })));
    assert.equal(found.length, 1);
    assert.ok(found[0]!.message.startsWith(`duplicate username "${'u'.repeat(100)}…" (1,000 characters)`), found[0]!.message);
  });
});

describe('record size limits: one at the limit is accepted, one over is refused with its path and the limit', () => {
  const small = (change: Partial<CatalogueLimits>): CatalogueLimits => ({ ...DEFAULT_CATALOGUE_LIMITS, ...change });

  test('string length, for a value', () => {
    assert.equal(check(file({ documents: DOCUMENT('b'.repeat(50)) }), small({ maxStringChars: 50 })).ok, true);
    assertOnly(check(file({ documents: DOCUMENT('b'.repeat(51)) }), small({ maxStringChars: 50 })), 'documents[0].body',
      'is a string of 51 characters: the limit is 50 characters (--max-string-chars, CATALOGUE_MAX_STRING_CHARS)');
  });

  test('string length, for a key', () => {
    const limits = small({ maxStringChars: 20 });
    assertOnly(check(file({ authors: `{"id":2,"username":"a","${'k'.repeat(20)}":1}` }), limits), `authors[0].${'k'.repeat(20)}`, 'unknown key');
    // Past the limit only the limit's worth of the key is held.
    assertOnly(check(file({ authors: `{"id":2,"username":"a","${'k'.repeat(21)}":1}` }), limits), `authors[0]["${'k'.repeat(20)}…"]`, 'has 21 characters: the limit is 20 characters');
  });

  test('string length counts escapes as the characters they stand for', () => {
    assert.equal(check(file({ documents: DOCUMENT('\\u0041'.repeat(50)) }), small({ maxStringChars: 50 })).ok, true);
  });

  test('positions per footprint, all rings and polygons together', () => {
    const rings = `[${RING},${RING}],[${RING}]`; // 12 positions
    const multi = `{"type":"MultiPolygon","coordinates":[${rings}]}`;
    assert.equal(check(file({ features: feature(multi) }), small({ maxPositions: 12 })).ok, true);
    assertOnly(check(file({ features: feature(multi) }), small({ maxPositions: 11 })), 'features[0].geometry.coordinates',
      'has 12 positions: the limit is 11 positions (--max-positions, CATALOGUE_MAX_POSITIONS)');
  });

  test('record bytes: the record as compact JSON text', () => {
    // The largest record of the file, so that the limit is about it alone.
    const record = DOCUMENT(`<p>Built in 1898, “the station”</p>${'.'.repeat(500)}`);
    const size = Buffer.byteLength(JSON.stringify(JSON.parse(record)));
    assert.equal(check(file({ documents: record }), small({ maxRecordBytes: size })).ok, true);
    assertOnly(check(file({ documents: record }), small({ maxRecordBytes: size - 1 })), 'documents[0]',
      `is more than ${(size - 1).toLocaleString('en-GB')} bytes of JSON: the limit is ${(size - 1).toLocaleString('en-GB')} bytes (--max-record-bytes, CATALOGUE_MAX_RECORD_BYTES)`);
  });

  test('a record past the limit is judged no further, and the records after it are', () => {
    const limits = small({ maxRecordBytes: 300 });
    const big = DOCUMENT('x'.repeat(400), ',"colour":1');
    const found = problems(check(file({ documents: `${big},${DOCUMENT('y', ',"colour":2').replace('971', '972')}` }), limits));
    assert.deepEqual(found.map((p) => p.path), ['documents[0]', 'documents[1].colour']);
  });

  test('whitespace does not count', () => {
    const record = DOCUMENT('abc'.repeat(200));
    const size = Buffer.byteLength(record);
    const spaced = record.replaceAll(',', ' ,\n  ').replaceAll(':', ' : ');
    assert.equal(check(file({ documents: spaced }), small({ maxRecordBytes: size })).ok, true);
  });

  test('the defaults: a 100 MB string and a footprint of a million positions are refused', { timeout: 60_000 }, () => {
    const huge = file({ documents: DOCUMENT('z'.repeat(100_000_000)) });
    assertOnly(check(huge), 'documents[0]', 'the limit is 64,000 bytes');
    const positions = Array.from({ length: 1_000_000 }, (_, i) => `[${(i % 1000) / 1e4},51.5]`).join(',');
    const footprint = `{"type":"Polygon","coordinates":[[[0,51.5],${positions},[0,51.5]]]}`;
    assertOnly(check(file({ features: feature(footprint) })), 'features[0]', 'bytes of JSON');
  });

  test('the defaults: a footprint of 2,000 positions within 64,000 bytes is accepted, 2,001 are not', () => {
    const ring = (n: number) => `[[0,51.5],${Array.from({ length: n - 2 }, (_, i) => `[${(i + 1) / 1e4},51.5]`).join(',')},[0,51.5]]`;
    assert.equal(check(file({ features: feature(`{"type":"Polygon","coordinates":[${ring(2000)}]}`) })).ok, true);
    assertOnly(check(file({ features: feature(`{"type":"Polygon","coordinates":[${ring(2001)}]}`) })), 'features[0].geometry.coordinates', 'has 2,001 positions');
  });
});
