// The answer checkers kept between test processes (test/support/kept-validators.ts): the
// process that compiles them writes them, a later one loads them, and both judge alike.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { keptValidators } from '../support/kept-validators.js';
import { temporaryDir } from '../support/temporary.js';

const ID = 'https://example.invalid/doc.json';
const DOCUMENT = { components: { schemas: { Point: { type: 'object', required: ['x'], properties: { x: { type: 'number' } } } } } };
const SCHEMAS = new Map<string, Record<string, unknown>>([
  ['#/components/schemas/Point', { $ref: '#/components/schemas/Point' }],
  ['inline', { type: 'array', items: { type: 'string' } }],
]);

function validators(dir: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, code: { source: true } });
  ajv.addSchema({ $id: ID, ...DOCUMENT }, ID);
  return keptValidators(ajv, DOCUMENT, SCHEMAS, (s) => (typeof s.$ref === 'string' ? { $ref: `${ID}${s.$ref}` } : s), dir);
}

test('compiled once and written; loaded from the file after; the same verdicts either way', () => {
  const dir = temporaryDir();
  const first = validators(dir);
  const files = fs.readdirSync(dir);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^answers-[0-9a-f]{16}\.cjs$/);
  // Loaded, not compiled: a module whose functions answer for the file's text.
  const second = validators(dir);
  assert.equal(fs.readdirSync(dir).length, 1);
  for (const kept of [first, second]) {
    const point = kept.get('#/components/schemas/Point')!;
    const strings = kept.get('inline')!;
    assert.deepEqual([point({ x: 1 }), point({ x: 'one' }), point({})], [true, false, false]);
    assert.deepEqual([strings(['a']), strings([1])], [true, false]);
  }
});

test('a later process takes the kept file as it finds it: nothing is compiled again', () => {
  const dir = temporaryDir();
  validators(dir);
  const [file] = fs.readdirSync(dir);
  fs.writeFileSync(path.join(dir, file!), 'exports.v0 = () => true; exports.v1 = () => true;');
  const loaded = validators(dir);
  assert.deepEqual([loaded.get('#/components/schemas/Point')!({}), loaded.get('inline')!([1])], [true, true]);
});
