// The SQL run on a real SQLite database through the store's dialect and functions: LIKE
// (via GLOB), CASEI, BETWEEN, IN, IS NULL, three-valued logic and S_INTERSECTS (R*Tree, then
// the exact test) give the standard's answers, not SQLite's case-blind LIKE.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { SQLITE_DIALECT } from '../../src/store/dialect.js';
import { toSqlite } from '../../src/store/sql.js';
import { registerFunctions } from '../../src/store/sqlite/sqlite.js';
import { boundingBox, encodeOutline } from '../../src/search/box.js';
import { filterSql, squareAround } from '../support/cql2-queryables.js';
import { CQL2_ROWS, CQL2_SEMANTICS } from '../support/cql2-semantics.js';

function database(): Database.Database {
  const db = new Database(':memory:');
  registerFunctions(db);
  db.exec('CREATE TABLE features (id INTEGER PRIMARY KEY, name TEXT, floors INTEGER, listed INTEGER, geometry TEXT, outline BLOB)');
  db.exec('CREATE VIRTUAL TABLE features_rtree USING rtree(id, min_x, max_x, min_y, max_y)');
  const insert = db.prepare('INSERT INTO features (id, name, floors, listed, geometry, outline) VALUES (?, ?, ?, ?, ?, ?)');
  const box = db.prepare('INSERT INTO features_rtree VALUES (?, ?, ?, ?, ?)');
  for (const [id, name, floors, listed] of CQL2_ROWS) {
    const square = squareAround(id);
    insert.run(id, name, floors, listed, JSON.stringify(square), encodeOutline(square));
    const [minX, minY, maxX, maxY] = boundingBox(square);
    box.run(id, minX, maxX, minY, maxY);
  }
  return db;
}

test('SQLite answers each filter as CQL2 says (LIKE case-sensitive, NULLs unknown)', () => {
  const db = database();
  const parser = createCql2TextParser();
  for (const [filter, ids] of CQL2_SEMANTICS) {
    const { sql, params } = filterSql(parser.parse(filter), SQLITE_DIALECT);
    const rows = db.prepare(toSqlite(`SELECT id FROM features f WHERE ${sql} ORDER BY id`)).pluck().all(...params);
    assert.deepEqual(rows, ids, `${filter} → ${sql}`);
  }
  db.close();
});
