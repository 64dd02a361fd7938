// `categories` (a feature's category names joined by "; ") as a queryable: CQL2 LIKE and `=`
// over the joined text, case-sensitive as on every text property, and `categories=NAME`
// meaning "one of its categories is named NAME". The expected ids are computed here from
// the records of a generated catalogue (names that hold one another, %, _, case), by the
// tests' own reading of a LIKE pattern; the plan of the count query must use the trigram
// index of the names (FTS5 on SQLite, pg_trgm on PostgreSQL), and a database made before the
// index gets it when brought up to date.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { toSql } from '../../src/ogc/cql2/to-sql.js';
import { binder, POSTGRES_DIALECT, SQLITE_DIALECT } from '../../src/store/dialect.js';
import { ogcSql } from '../../src/store/ogc/ogc-sql.js';
import { toSqlite } from '../../src/store/sql.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { appAfterUpgrade, startTestApp, type TestApp } from '../support/in-process.js';
import { enc } from '../support/ogc.js';
import { createTestDatabase, testStoreKind, withPgClient, type TestDatabase } from '../support/stores.js';

const NAMES = ['Pubs', 'Pubs and inns', 'Public houses', 'pubs (closed)', '100% Proof_bar', 'Synagogues', 'Churches', 'Back\\room'];
const FIRST_ID = 100;
const FEATURES = 9000;

/** The test catalogue and FEATURES more buildings, each in 0 to 3 of NAMES in a seeded random order; Synagogues rare. */
function categoryCatalogue(): Catalogue {
  const catalogue = buildTestCatalogue();
  const model = catalogue.features[4]!;
  catalogue.categories.push(...NAMES.map((name, i) => ({ id: FIRST_ID + i, name, description: '', thumbnail: `categories/${i}.png` })));
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65536) % n;
  };
  const last = Math.max(...catalogue.features.map((f) => f.id));
  for (let n = 0; n < FEATURES; n++) {
    const chosen = new Set<number>();
    for (let k = random(4); k > 0; k--) {
      const pick = random(NAMES.length - 1);
      chosen.add(FIRST_ID + (NAMES[pick] === 'Synagogues' && random(20) > 0 ? 0 : pick));
    }
    const [x, y] = [-0.08 + (n % 100) * 0.0002, 51.51 + Math.floor(n / 100) * 0.0002];
    const ring: [number, number][] = [[x, y], [x + 0.0001, y], [x + 0.0001, y + 0.0001], [x, y + 0.0001], [x, y]];
    const feature: Feature = { ...model, id: last + 1 + n, categories: [...chosen], geometry: { type: 'MultiPolygon', coordinates: [[ring]] } };
    catalogue.features.push(feature);
  }
  return catalogue;
}

/** CQL2 LIKE read independently: % any run, _ one character, \ takes the next literally; whole text, case-sensitive. */
function likeRegExp(pattern: string): RegExp {
  let source = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') source += escapeRegExp(chars[++i]!);
    else source += c === '%' ? '[\\s\\S]*' : c === '_' ? '[\\s\\S]' : escapeRegExp(c);
  }
  return new RegExp(`^${source}$`, 'u');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/gu, '\\$&');

const catalogue = categoryCatalogue();
const namesOf = (f: Feature) => f.categories.map((id) => catalogue.categories.find((c) => c.id === id)!.name);
const joined = (f: Feature) => namesOf(f).join('; ');
const idsWhere = (keep: (f: Feature) => boolean) => catalogue.features.filter(keep).map((f) => f.id).sort((a, b) => a - b);

/** Filters (CQL2 text) and what they must find. */
const FILTERS: [string, (f: Feature) => boolean][] = [
  ...['%Pubs%', '%pubs%', 'Pubs%', '%Pubs', 'Pubs', '%Pub_ic%', '%100\\% Proof\\_bar%', '%0_ P%', '%Synagogues%', '%Back\\\\room%', '%', '', 'Pu%', '%s; P%']
    .map((pattern): [string, (f: Feature) => boolean] => [`categories LIKE '${pattern}'`, (f) => likeRegExp(pattern).test(joined(f))]),
  ["categories = 'Pubs'", (f) => joined(f) === 'Pubs'],
  ["categories = 'Pubs and inns'", (f) => joined(f) === 'Pubs and inns'],
  ["'Churches' = categories", (f) => joined(f) === 'Churches'],
  ["categories = ''", (f) => f.categories.length === 0],
  ["categories = '100% Proof_bar'", (f) => joined(f) === '100% Proof_bar'],
  ["NOT categories LIKE '%Pubs%'", (f) => !joined(f).includes('Pubs')],
  ["categories <> 'Pubs'", (f) => joined(f) !== 'Pubs'],
  ["CASEI(categories) LIKE CASEI('%PUBS%')", (f) => joined(f).toLowerCase().includes('pubs')],
  ["categories LIKE '%Pubs%' AND id > 1000", (f) => joined(f).includes('Pubs') && f.id > 1000],
  ["categories IN ('Pubs', 'Churches')", (f) => ['Pubs', 'Churches'].includes(joined(f))],
];

/** `categories=VALUE`: one of the feature's categories is named VALUE exactly. */
const NAME_VALUES = ['Pubs', 'pubs', 'Pubs and inns', '100% Proof_bar', 'Back\\room', 'Pub', 'Synagogues'];

async function matched(app: TestApp, query: string): Promise<number[]> {
  const answer = await app.request(`/ogc/collections/features/items?${query}&limit=10000&skipGeometry=true&properties=id`);
  assert.equal(answer.status, 200, answer.text);
  const body = answer.json();
  assert.equal(body.numberMatched, body.features.length);
  return body.features.map((f: { id: number }) => f.id);
}

describe('categories as a queryable', () => {
  let app: TestApp;
  let database: TestDatabase;
  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue, database });
  });
  after(() => app?.close());

  test('the queryables list categories as a string', async () => {
    const body = (await app.request('/ogc/collections/features/queryables')).json();
    assert.equal(body.properties.categories.type, 'string');
  });

  for (const [filter, keep] of FILTERS) {
    test(`filter=${filter}`, async () => {
      const expected = idsWhere(keep);
      assert.deepEqual(await matched(app, `filter=${enc(filter)}`), expected);
    });
  }

  test('the patterns find names held in others, none, some and every feature', () => {
    const counts = FILTERS.map(([, keep]) => idsWhere(keep).length);
    assert.ok(counts.some((n) => n === 0) && counts.some((n) => n === catalogue.features.length));
    assert.ok(idsWhere((f) => namesOf(f).includes('Pubs and inns') && !namesOf(f).includes('Pubs')).length > 0);
  });

  for (const value of NAME_VALUES) {
    test(`categories=${value}: a category of that name among the feature's`, async () => {
      const expected = idsWhere((f) => namesOf(f).includes(value));
      assert.deepEqual(await matched(app, `categories=${enc(value)}`), expected);
      if (expected.length > 0) assert.notDeepEqual(expected, idsWhere((f) => joined(f) === value), 'the test tells "one of" from the whole text');
    });
  }

  test('a LIKE on categories is planned on the trigram index of the names', async () => {
    const filter = createCql2TextParser().parse("categories LIKE '%Synagogues%'");
    const kind = testStoreKind();
    const dialect = kind === 'postgres' ? POSTGRES_DIALECT : SQLITE_DIALECT;
    const sql = ogcSql('features', dialect);
    const { bind, params } = binder();
    const count = `SELECT count(*) AS n ${sql.from} AND ${toSql(filter, sql.queryables, dialect, bind)}`;
    if (kind === 'sqlite') {
      const db = new Database(String(database.settings.database), { readonly: true });
      try {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${toSqlite(count)}`).all(...params) as { detail: string }[]).map((r) => r.detail);
        assert.ok(plan.some((d) => /feature_category_names VIRTUAL TABLE INDEX \d+:G/.test(d)), plan.join('\n'));
      } finally {
        db.close();
      }
    } else {
      const plan = await withPgClient(async (client) => {
        await client.query(`SET search_path = ${database.settings.databaseSchema}, public`);
        return (await client.query(`EXPLAIN ${count}`, params)).rows.map((r) => r['QUERY PLAN'] as string);
      });
      assert.ok(plan.some((line) => line.includes('Index Scan on feature_category_names_trigrams')), plan.join('\n'));
    }
  });
});

describe('a database made before the names were indexed', () => {
  let app: TestApp | undefined;
  after(() => app?.close());

  test('is brought up to date, and then filters by category names', async () => {
    const small = buildTestCatalogue();
    const upgraded = await appAfterUpgrade(small, {
      sqlite: "DROP TABLE feature_category_names; UPDATE meta SET value = '5' WHERE key = 'schema_version'",
      // Made before migration 6, so before 7 and 8 too.
      postgres: `DROP TABLE feature_category_names; DELETE FROM schema_migrations WHERE version >= 6; ALTER TABLE tiles DROP COLUMN level; DROP TABLE tile_levels;
        ALTER TABLE features ${['image_count', 'document_count', 'media_count', 'first_image', 'category_list', 'tag_list', 'item_text'].map((c) => `DROP COLUMN ${c}`).join(', ')}`,
    });
    app = upgraded;
    const expected = small.features.filter((f) => f.categories.includes(3)).map((f) => f.id).sort((a, b) => a - b);
    assert.ok(expected.length > 0);
    assert.deepEqual(await matched(upgraded, `filter=${enc("categories LIKE '%Pubs%'")}`), expected);
  });
});
