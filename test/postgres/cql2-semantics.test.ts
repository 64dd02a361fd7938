// The CQL2 semantics table of test/unit/cql2-sqlite.test.ts on PostgreSQL, through the
// store's dialect: LIKE, CASEI, BETWEEN, IN, IS NULL, three-valued logic and PostGIS
// intersections, in a temporary table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { POSTGRES_DIALECT } from '../../src/store/dialect.js';
import { filterSql, squareAround } from '../support/cql2-queryables.js';
import { CQL2_ROWS, CQL2_SEMANTICS } from '../support/cql2-semantics.js';
import { postgresUnavailableReason, withPgClient } from '../support/stores.js';

const reason = await postgresUnavailableReason();
const skip = reason !== null && process.env.HERITAGE_TEST_POSTGRES !== 'required' ? reason : false;

test('PostgreSQL answers each filter as CQL2 says', { skip }, async () => {
  const parser = createCql2TextParser();
  await withPgClient(async (client) => {
    await client.query('CREATE TEMPORARY TABLE f (id integer PRIMARY KEY, name text, floors integer, listed boolean, geom geometry(MultiPolygon, 4326))');
    for (const [id, name, floors, listed] of CQL2_ROWS) {
      await client.query('INSERT INTO f VALUES ($1, $2, $3, $4, ST_SetSRID(ST_GeomFromGeoJSON($5), 4326))', [id, name, floors, listed === 1, JSON.stringify(squareAround(id))]);
    }
    for (const [filter, ids] of CQL2_SEMANTICS) {
      const { sql, params } = filterSql(parser.parse(filter), POSTGRES_DIALECT);
      const { rows } = await client.query<{ id: number }>(`SELECT id FROM f WHERE ${sql} ORDER BY id`, params);
      assert.deepEqual(rows.map((row) => row.id), ids, `${filter} → ${sql}`);
    }
  });
});
