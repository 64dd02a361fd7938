// PostgreSQL databases are usually made with a language's collation (en_US and the like),
// under which 'B' sorts after 'a'; SQLite compares text by code point. The OGC face must
// answer alike on both: CQL2 comparisons and sortby on text follow code points whatever
// the database's collation, and CASEI folds case as SQLite's casefold (JavaScript's
// toLowerCase) does. This file makes a database with ICU's en-US collation (the
// other PostgreSQL tests' database is C.UTF-8, where the two orders agree) and asks it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { enc } from '../support/ogc.js';
import { postgresUnavailableReason, TEST_PG_URL, withPgClient } from '../support/stores.js';

const reason = await postgresUnavailableReason();
const skip = reason !== null && process.env.HERITAGE_TEST_POSTGRES !== 'required' ? reason : false;
/** Names whose code-point order differs from a language's: upper case first, accents last. */
const NAMES = ['apple', 'Banana', 'banana', 'Zebra', 'éclair', 'Apple', 'İSTANBUL', 'ΣΑΣ'];
const database = `heritage_test_collation_${process.pid}`;

/** The tests' server, this file's own database. */
function databaseUrl(): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

function catalogueWithNames(): Catalogue {
  const catalogue = buildTestCatalogue();
  catalogue.features.forEach((feature, i) => {
    feature.b_name = NAMES[i % NAMES.length]!;
  });
  return catalogue;
}

/** Code-point order, the tests' own: JavaScript compares UTF-16 units, the same order for these names. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('PostgreSQL with a language collation: text compares and sorts by code point', { skip }, () => {
  const catalogue = catalogueWithNames();
  let t: TestApp;
  before(async () => {
    if (reason !== null) throw new Error(reason);
    await withPgClient((c) => c.query(`CREATE DATABASE ${database} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`));
    t = await startTestApp({ catalogue, database: { settings: { database: databaseUrl() }, args: ['--db', databaseUrl()], drop: async () => undefined } });
  });
  after(async () => {
    await t?.close();
    await withPgClient((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  });

  test('the database does order these names otherwise (so the next tests can fail)', async () => {
    const { rows } = await withPgClient((c) => c.query<{ n: string }>(`SELECT n FROM unnest($1::text[]) AS n ORDER BY n`, [NAMES]), databaseUrl());
    assert.notDeepEqual(rows.map((r) => r.n), [...NAMES].sort(byCodePoint));
  });

  test('b_name < \'a\' finds the names before it by code point', async () => {
    const answer = await t.request(`/ogc/collections/features/items?limit=1000&filter=${enc("b_name < 'a'")}`);
    assert.equal(answer.status, 200);
    const expected = catalogue.features.filter((f) => byCodePoint(f.b_name!, 'a') < 0).map((f) => f.id).sort((a, b) => a - b);
    assert.ok(expected.length > 0);
    assert.deepEqual(answer.json().features.map((f: { id: number }) => f.id).sort((a: number, b: number) => a - b), expected);
  });

  test('sortby=b_name orders by code point, ties by id', async () => {
    const answer = await t.request('/ogc/collections/features/items?limit=1000&sortby=b_name');
    assert.equal(answer.status, 200);
    const expected = [...catalogue.features].sort((a, b) => byCodePoint(a.b_name!, b.b_name!) || a.id - b.id).map((f) => f.id);
    assert.deepEqual(answer.json().features.map((f: { id: number }) => f.id), expected);
  });

  for (const word of ['i\u0307stanbul', 'σας', 'ΣΑΣ']) {
    test(`CASEI(b_name) = CASEI('${word}') folds case as JavaScript does (İ to i̇, a final Σ to ς)`, async () => {
      const answer = await t.request(`/ogc/collections/features/items?limit=1000&filter=${enc(`CASEI(b_name) = CASEI('${word}')`)}`);
      assert.equal(answer.status, 200);
      const expected = catalogue.features.filter((f) => f.b_name!.toLowerCase() === word.toLowerCase()).map((f) => f.id).sort((a, b) => a - b);
      assert.ok(expected.length > 0);
      assert.deepEqual(answer.json().features.map((f: { id: number }) => f.id).sort((a: number, b: number) => a - b), expected);
    });
  }
});
