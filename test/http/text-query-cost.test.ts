// The cost of a text query is bounded: `q` past its documented limits is a 400 naming them,
// and a crowd of clients sending the costliest `q` still accepted, over thousands of
// records, does not keep anyone else's requests from being answered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

// The limits as docs/api.md and docs/operators.md document them, written out here rather than imported.
const MAX_LENGTH = 500;
const MAX_WORDS = 20;
const MAX_WORD_LENGTH = 64;
const ATTACKERS = 12;
const NORMAL_REQUESTS = 40;
const DEADLINE_MS = 120_000;

const catalogue = generateDemoCatalogue({ scale: 1, seed: 1 });
const COLLECTIONS = ['features', 'images', 'documents', 'media'] as const;
let t: TestApp;
before(async () => {
  // No answer cache: every request below reaches the database.
  t = await startTestApp({ catalogue, settings: { cacheMaxMb: '0' } });
});
after(() => t.close());

let seed = 1;
/** Lower-case letters, different on every call, so that no two attack requests are alike. */
function letters(length: number): string {
  let word = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    word += String.fromCharCode(97 + (seed % 26));
  }
  return word;
}

/** The costliest shapes of an accepted `q`: long words up to each limit, and the most single letters. */
const worstQueries: (() => string)[] = [
  () => Array.from({ length: MAX_WORDS }, () => letters(Math.floor((MAX_LENGTH - MAX_WORDS + 1) / MAX_WORDS))).join(' '),
  () => Array.from({ length: Math.floor((MAX_LENGTH + 1) / (MAX_WORD_LENGTH + 1)) }, () => letters(MAX_WORD_LENGTH)).join(' '),
  () => [...new Set(letters(200))].slice(0, MAX_WORDS).join(' '),
];

const get = (collection: string, query: string) => t.request(`/api/v1/${collection}/?${query}`);

describe('the limits of q', () => {
  const cases: [string, string, RegExp][] = [
    ['characters', 'a '.repeat(MAX_LENGTH / 2) + 'b', new RegExp(`^Invalid q: expected at most ${MAX_LENGTH} characters\\.$`)],
    ['words', Array.from({ length: MAX_WORDS + 1 }, (_, i) => `w${i}`).join(' '), new RegExp(`^Invalid q: expected at most ${MAX_WORDS} words\\.$`)],
    ['word length', `brick ${'x'.repeat(MAX_WORD_LENGTH + 1)}`, new RegExp(`^Invalid q: expected words of at most ${MAX_WORD_LENGTH} characters\\.$`)],
    // Folding counts: "ﬃ" is three letters once folded.
    ['folded word length', 'ﬃ'.repeat(22), new RegExp(`at most ${MAX_WORD_LENGTH} characters`)],
  ];
  for (const [what, q, detail] of cases) {
    test(`one past the limit on ${what}: 400 naming q and the limit, on every collection`, async () => {
      for (const collection of COLLECTIONS) {
        const answer = await get(collection, `q=${encodeURIComponent(q)}`);
        assert.equal(answer.status, 400, `${collection}: ${answer.text}`);
        assert.equal(answer.headers['content-type'], 'application/json');
        assert.match(answer.json().detail, detail);
      }
    });
  }

  test('at the limits: answered, and matching as any query does', async () => {
    const longest = 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch'; // 58 letters, a real place
    const atLimits = [
      `${Array.from({ length: 7 }, () => 'x'.repeat(MAX_WORD_LENGTH)).join(' ')} ${'z'.repeat(MAX_LENGTH - 7 * (MAX_WORD_LENGTH + 1))}`,
      Array.from({ length: MAX_WORDS }, (_, i) => `w${i}`).join(' '),
      longest,
    ];
    for (const q of [...atLimits, ...worstQueries.map((make) => make())]) {
      const answer = await get('features', `q=${encodeURIComponent(q)}`);
      assert.equal(answer.status, 200, `${q}: ${answer.text}`);
      // No word of the demo catalogue is as long as these, nor begins with w0…w19.
      if (atLimits.includes(q)) assert.equal(answer.json().count, 0, q);
    }
    // Repeated words, and words that begin another word of the query, change nothing.
    const street = catalogue.features[0]!.street!.split(' ')[0]!.toLowerCase();
    const plain = (await get('features', `q=${street}&page_size=1000`)).json();
    assert.ok(plain.count > 0);
    const padded = (await get('features', `q=${encodeURIComponent(`${street} ${street.slice(0, 2)} ${street} ${street.slice(0, 1)}`)}&page_size=1000`)).json();
    assert.deepEqual(padded.results, plain.results);
    assert.equal(padded.count, plain.count);
  });
});

describe(`${ATTACKERS} clients sending the costliest accepted q`, () => {
  test('leave every other request answered 200', async () => {
    const deadline = Date.now() + DEADLINE_MS;
    let stop = false;
    const attackStatuses = new Map<number, number>();
    const attacker = async (n: number) => {
      for (let i = n; !stop && Date.now() < deadline; i++) {
        const collection = COLLECTIONS[i % COLLECTIONS.length]!;
        const answer = await get(collection, `q=${encodeURIComponent(worstQueries[i % worstQueries.length]!())}`);
        attackStatuses.set(answer.status, (attackStatuses.get(answer.status) ?? 0) + 1);
      }
    };
    const attack = Array.from({ length: ATTACKERS }, (_, n) => attacker(n));

    // Requests a visitor makes, each different so that none could be answered from a cache.
    const normal: { path: string; status: number }[] = [];
    try {
      for (let i = 0; i < NORMAL_REQUESTS && Date.now() < deadline; i++) {
        const feature = catalogue.features[(i * 97) % catalogue.features.length]!;
        const paths = [
          `/api/v1/features/?page=${1 + (i % 5)}&page_size=${10 + i}`,
          `/api/v1/features/${feature.id}/`,
          `/api/v1/images/?q=${encodeURIComponent(feature.street ?? 'street')}&page_size=${5 + i}`,
          `/api/v1/features/?categories=${feature.categories[0] ?? 1}&page_size=${20 + i}`,
        ];
        const path = paths[i % paths.length]!;
        normal.push({ path, status: (await t.request(path)).status });
      }
    } finally {
      stop = true;
      await Promise.all(attack);
    }

    assert.equal(normal.length, NORMAL_REQUESTS, 'every normal request was made before the deadline');
    assert.deepEqual(normal.filter((r) => r.status !== 200), [], 'normal requests not answered 200');
    assert.deepEqual([...attackStatuses.keys()], [200], `the attack's own answers: ${JSON.stringify([...attackStatuses])}`);
  });
});
