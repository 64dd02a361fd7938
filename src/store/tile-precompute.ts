// Crowded tiles (see tiles/crowded.ts) are made once per import, inside the import's
// transaction, so that no tile asked for later costs more than CROWDED_ABOVE footprints.
// Neither store holds the catalogue in memory for it: the crowded tiles are found by
// counting in the index, and each is made by the plan that makes a tile on request
// (tile-plans.ts), its footprints read in batches.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { runCrowdedSearch, runCrowdedSearchAsync } from '../tiles/crowded.js';
import { runAsync, runSync, type Query } from './read-plans.js';
import { toSqlite } from './sql.js';
import { POSTGRES_TILE_SQL, SQLITE_TILE_SQL, crowdedTilePlan, tileParams } from './tile-plans.js';

const INSERT_TILE = 'INSERT INTO tiles (z, x, y, mvt) VALUES ($1, $2, $3, $4)';

export function precomputeSqliteTiles(db: Database.Database): void {
  db.prepare('DELETE FROM tiles').run();
  const statements = new Map<string, Database.Statement>();
  const query = ({ sql, params }: Query) => {
    if (!statements.has(sql)) statements.set(sql, db.prepare(toSqlite(sql)));
    return statements.get(sql)!.all(...params);
  };
  const count = (tile: Parameters<typeof tileParams>[0]) => (query({ sql: SQLITE_TILE_SQL.count, params: tileParams(tile) })[0] as { n: number }).n;
  const insert = db.prepare(toSqlite(INSERT_TILE));
  for (const tile of runCrowdedSearch(count)) {
    insert.run(tile.z, tile.x, tile.y, runSync(crowdedTilePlan(tile, SQLITE_TILE_SQL), query));
  }
}

export async function precomputePostgresTiles(client: pg.ClientBase): Promise<void> {
  await client.query('DELETE FROM tiles');
  const query = async ({ sql, params }: Query) => (await client.query(sql, params)).rows;
  const crowded = await runCrowdedSearchAsync(async (tile) => (await query({ sql: POSTGRES_TILE_SQL.count, params: tileParams(tile) }))[0].n as number);
  for (const tile of crowded) {
    const bytes = await runAsync(crowdedTilePlan(tile, POSTGRES_TILE_SQL), query);
    await client.query(INSERT_TILE, [tile.z, tile.x, tile.y, bytes]);
  }
}
