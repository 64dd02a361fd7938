// The request ids the server makes when the client sent none: random (version 4) UUIDs in
// the canonical text form, never the same twice, across the source's batches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uuidSource } from '../../src/http/operations/request-ids.js';

/** RFC 9562: 8-4-4-4-12 lower-case hex digits, version 4, variant 10 (8, 9, a or b). */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('every id is a version 4 UUID, and none repeats over several batches', () => {
  const next = uuidSource();
  const ids = Array.from({ length: 2000 }, () => next());
  for (const id of ids) assert.match(id, UUID_V4);
  assert.equal(new Set(ids).size, ids.length);
});

test('every hex digit occurs in every random position (the bits are not stuck)', () => {
  const next = uuidSource();
  const seen = Array.from({ length: 36 }, () => new Set<string>());
  for (let i = 0; i < 2000; i++) [...next()].forEach((char, at) => seen[at]?.add(char));
  const fixed = new Map([[8, '-'], [13, '-'], [14, '4'], [18, '-'], [23, '-']]);
  seen.forEach((chars, at) => {
    if (fixed.has(at)) assert.deepEqual([...chars], [fixed.get(at)], `position ${at}`);
    else if (at === 19) assert.deepEqual([...chars].sort(), ['8', '9', 'a', 'b']);
    else assert.equal(chars.size, 16, `position ${at}: ${[...chars].sort().join('')}`);
  });
});

test('two sources do not repeat each other', () => {
  const [a, b] = [uuidSource(), uuidSource()];
  const ids = new Set(Array.from({ length: 600 }, (_, i) => (i % 2 === 0 ? a() : b())));
  assert.equal(ids.size, 600);
});
