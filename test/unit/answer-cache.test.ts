import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerCache, encodedBody, makeAnswer } from '../../src/http/answer-cache.js';
import { chooseEncoding, matchesEtag } from '../../src/http/answers.js';

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

test('Accept-Encoding: br first, q=0 refuses, * counts', () => {
  assert.equal(chooseEncoding('gzip, br'), 'br');
  assert.equal(chooseEncoding('br;q=0, gzip'), 'gzip');
  assert.equal(chooseEncoding('*'), 'br');
  assert.equal(chooseEncoding('identity'), null);
  assert.equal(chooseEncoding(undefined), null);
});
