// Stored JSON text spliced into answers: the same bytes JSON.stringify gives for the parsed value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonText, stringifyAnswer } from '../../src/json-text.js';

const geometry = { type: 'MultiPolygon', coordinates: [[[[-0.0703927, 51.5168396], [1e-7, -0], [0.1 + 0.2, 90], [-0.0703927, 51.5168396]]]] };

test('an answer with stored texts is byte for byte the answer with their values', () => {
  const text = JSON.stringify(geometry);
  const body = { results: [{ id: 1, geometry: new JsonText(text), title: '\u0001 0:"' }, { id: 2, geometry: new JsonText(text) }], s: '$1 $& $$' };
  const expected = JSON.stringify({ results: [{ id: 1, geometry, title: '\u0001 0:"' }, { id: 2, geometry }], s: '$1 $& $$' });
  assert.equal(stringifyAnswer(body), expected);
});

test('a catalogue string that looks like a marker stays a string', () => {
  const body = { a: new JsonText('[1]'), b: '\u0001' + '0'.repeat(36) + ':0' };
  assert.deepEqual(JSON.parse(stringifyAnswer(body)), { a: [1], b: body.b });
});

test('outside stringifyAnswer a stored text is its value', () => {
  assert.equal(JSON.stringify({ g: new JsonText('{"a":[1,2]}') }), '{"g":{"a":[1,2]}}');
});
