import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerCache, encodedBody, makeAnswer } from '../../src/http/cache/answer-cache.js';
import { chooseEncoding, EncodingChoices, encodedEtag, matchesEtag } from '../../src/http/cache/answers.js';

const body = (n: number) => Buffer.alloc(n, 'x');

test('bounded in bytes: the least recently used answers go first', () => {
  const cache = new AnswerCache(3000);
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, makeAnswer(1, body(500)));
  assert.ok(cache.size.bytes <= 3000);
  assert.equal(cache.get(1, 'k0'), undefined);
  assert.ok(cache.get(1, 'k9'));
  const kept = [...Array(10).keys()].filter((i) => cache.get(1, `k${i}`) !== undefined);
  assert.ok(kept.length >= 2 && kept.at(-1) === 9, `kept ${kept}`);
  const [oldest, second] = kept as [number, number];
  cache.get(1, `k${oldest}`); // touched: now kept over the second oldest
  cache.set('k10', makeAnswer(1, body(500)));
  assert.ok(cache.get(1, `k${oldest}`));
  assert.equal(cache.get(1, `k${second}`), undefined);
});

test('an answer of a newer catalogue drops every older one; a size of 0 keeps nothing', () => {
  const cache = new AnswerCache(1_000_000);
  cache.set('a', makeAnswer(1, body(10)));
  cache.set('b', makeAnswer(2, body(10)));
  assert.equal(cache.get(1, 'a'), undefined);
  assert.equal(cache.size.entries, 1);
  const none = new AnswerCache(0);
  none.set('a', makeAnswer(1, body(10)));
  assert.equal(none.get(1, 'a'), undefined);
});

test('compressed forms are made once and counted', () => {
  const cache = new AnswerCache(1_000_000);
  const answer = makeAnswer(1, Buffer.from(JSON.stringify({ a: 'y'.repeat(1000) })));
  cache.set('a', answer);
  const before = cache.size.bytes;
  const gzip = encodedBody(answer, 'gzip');
  assert.equal(encodedBody(answer, 'gzip'), gzip);
  cache.grew('a', answer);
  assert.equal(cache.size.bytes, before + gzip.length);
});

test('ETags: strong, version first; If-None-Match comparison is weak', () => {
  const a = makeAnswer(7, body(3));
  assert.match(a.etag, /^"7-/);
  assert.notEqual(makeAnswer(8, body(3)).etag, a.etag);
  assert.ok(matchesEtag(`W/${a.etag}`, a.etag));
  assert.ok(!matchesEtag('"7-other"', a.etag));
  assert.ok(!matchesEtag(undefined, a.etag));
});

/** [Accept-Encoding, the encoding RFC 9110 §12.5.3 gives (null: the identity body)]. */
const NEGOTIATION: [string | undefined, 'br' | 'gzip' | null][] = [
  [undefined, null],
  ['', null],
  ['identity', null],
  ['gzip', 'gzip'],
  ['br', 'br'],
  ['gzip, br', 'br'],
  ['br, gzip', 'br'],
  ['GZIP', 'gzip'],
  ['br;q=0.5, gzip;q=0.9', 'gzip'],
  ['br;q=0.9, gzip;q=0.5', 'br'],
  ['gzip;q=1.0, br;q=0.999', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['br;q=0, gzip;q=0', null],
  ['gzip;q=0, br;q=0', null],
  ['*', 'br'],
  ['*;q=0', null],
  ['*, br;q=0', 'gzip'],
  ['*;q=0, gzip', 'gzip'],
  ['*;q=0.1, gzip;q=0.5', 'gzip'],
  ['identity;q=1, br;q=0.5', null],
  ['identity;q=0.1, gzip;q=0.2', 'gzip'],
  ['identity;q=0', null],
  ['identity;q=0, *;q=0', null],
  ['deflate', null],
  ['deflate, gzip;q=0.1', 'gzip'],
  ['compress, x-gzip', null],
  ['br ; q=0.8 , gzip ; q=0.4', 'br'],
  ['gzip;q=abc', null],
];

test('Accept-Encoding: q-values honoured, q=0 refuses, * for the rest, br before gzip at equal q', () => {
  for (const [header, expected] of NEGOTIATION) assert.equal(chooseEncoding(header), expected, JSON.stringify(header));
  // Through an app's memo, twice (the second time each parsed header is remembered): the same answers.
  const choices = new EncodingChoices();
  for (let round = 0; round < 2; round++) {
    for (const [header, expected] of NEGOTIATION) assert.equal(choices.choose(header), expected, JSON.stringify(header));
  }
});

test('ETags per encoding: identity, gzip and brotli each have their own strong ETag', () => {
  const etag = makeAnswer(7, body(3)).etag;
  const tags = [encodedEtag(etag, null), encodedEtag(etag, 'gzip'), encodedEtag(etag, 'br')];
  assert.equal(tags[0], etag);
  assert.equal(new Set(tags).size, 3);
  for (const tag of tags) assert.match(tag, /^"7-[A-Za-z0-9_-]+"$/);
  assert.equal(tags[1], `${etag.slice(0, -1)}-gz"`);
  assert.ok(!matchesEtag(etag, tags[1]!));
});
