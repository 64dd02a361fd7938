// The SQL run on a real SQLite database: LIKE (via GLOB), CASEI, BETWEEN, IN, IS NULL and
// three-valued logic give the standard's answers, not SQLite's case-blind LIKE.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { toSql } from '../../src/ogc/cql2/to-sql.js';
import { QUERYABLES, SQLITE } from '../support/cql2-queryables.js';
import { CQL2_ROWS, CQL2_SEMANTICS } from '../support/cql2-semantics.js';

function database(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE f (id INTEGER PRIMARY KEY, name TEXT, floors INTEGER, listed INTEGER, geom TEXT)');
  const insert = db.prepare('INSERT INTO f (id, name, floors, listed, geom) VALUES (?, ?, ?, ?, ?)');
  for (const [id, name, floors, listed] of CQL2_ROWS) insert.run(id, name, floors, listed, JSON.stringify([id, id]));
  // The test's spatial check: a stored point inside the filter's BBOX.
  db.function('footprint_intersects', { deterministic: true }, (geom: unknown, literal: unknown) => {
    const [x, y] = JSON.parse(String(geom)) as number[];
    const { bbox } = JSON.parse(String(literal)) as { bbox: number[] };
    const [w = 0, s = 0, e = 0, n = 0] = bbox;
    return (x ?? 0) >= w && (x ?? 0) <= e && (y ?? 0) >= s && (y ?? 0) <= n ? 1 : 0;
  });
  return db;
}

test('SQLite answers each filter as CQL2 says (LIKE case-sensitive, NULLs unknown)', () => {
  const db = database();
  const parser = createCql2TextParser();
  for (const [filter, ids] of CQL2_SEMANTICS) {
    const { sql, params } = toSql(parser.parse(filter), QUERYABLES, SQLITE);
    const rows = db.prepare(`SELECT id FROM f WHERE ${sql} ORDER BY id`).pluck().all(...params);
    assert.deepEqual(rows, ids, `${filter} → ${sql}`);
  }
  db.close();
});
