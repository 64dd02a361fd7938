// Crowded tiles (see tiles/crowded.ts) are made once per import, inside the import's
// transaction, so that no tile asked for later costs more than CROWDED_ABOVE footprints.
// Neither store holds the catalogue in memory for it: the crowded tiles are found by
// counting in the index, and each is made by the plan that makes a tile on request
// (tile-plans.ts), its footprints read in batches.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Box } from '../search/box.js';
import { CROWDED_ABOVE, EVERY_TILE, runCrowdedSearch, runCrowdedSearchAsync, tilesMeeting, type TileScope } from '../tiles/crowded.js';
import type { TileAddress } from '../tiles/grid.js';
import { runAsync, runSync, type Query } from './read-plans.js';
import { toSqlite } from './sql.js';
import { POSTGRES_TILE_SQL, SQLITE_TILE_SQL, crowdedTilePlan, tileParams } from './tile-plans.js';

const INSERT_TILE = 'INSERT INTO tiles (z, x, y, mvt) VALUES ($1, $2, $3, $4)';
const DELETE_TILE = 'DELETE FROM tiles WHERE z = $1 AND x = $2 AND y = $3';
const STORED_TILES = 'SELECT z, x, y FROM tiles';

/** At import: every crowded tile made, and the previous catalogue's dropped. */
export function precomputeSqliteTiles(db: Database.Database): void {
  remakeSqliteTiles(db, EVERY_TILE);
}

export async function precomputePostgresTiles(client: pg.ClientBase): Promise<void> {
  await remakePostgresTiles(client, EVERY_TILE);
}

/**
 * After an apply: the crowded tiles that the changed footprints' boxes (old and new) meet
 * are made again, as at import, and those no longer crowded are dropped; no other tile's
 * footprints changed. A tile is made whole rather than edited: a point of the tiles'
 * `points` layer stands for every small footprint of its cell, so a change reaches past the
 * changed footprint itself.
 */
export function refreshSqliteTiles(db: Database.Database, boxes: readonly Box[]): void {
  remakeSqliteTiles(db, tilesMeeting(boxes));
}

export async function refreshPostgresTiles(client: pg.ClientBase, boxes: readonly Box[]): Promise<void> {
  await remakePostgresTiles(client, tilesMeeting(boxes));
}

/** The stored tiles in scope dropped, then the crowded ones in scope made and stored. */
function remakeSqliteTiles(db: Database.Database, scope: TileScope): void {
  const statements = new Map<string, Database.Statement>();
  const query = ({ sql, params }: Query) => {
    if (!statements.has(sql)) statements.set(sql, db.prepare(toSqlite(sql)));
    return statements.get(sql)!.all(...params);
  };
  const crowded = runCrowdedSearch((tile) => (query({ sql: SQLITE_TILE_SQL.count, params: tileParams(tile) })[0] as { n: number }).n, CROWDED_ABOVE, scope);
  const remove = db.prepare(toSqlite(DELETE_TILE));
  for (const tile of (db.prepare(STORED_TILES).all() as TileAddress[]).filter(scope)) remove.run(tile.z, tile.x, tile.y);
  const insert = db.prepare(toSqlite(INSERT_TILE));
  for (const tile of crowded) insert.run(tile.z, tile.x, tile.y, runSync(crowdedTilePlan(tile, SQLITE_TILE_SQL), query));
}

async function remakePostgresTiles(client: pg.ClientBase, scope: TileScope): Promise<void> {
  const query = async ({ sql, params }: Query) => (await client.query(sql, params)).rows;
  const count = async (tile: TileAddress) => (await query({ sql: POSTGRES_TILE_SQL.count, params: tileParams(tile) }))[0].n as number;
  const crowded = await runCrowdedSearchAsync(count, CROWDED_ABOVE, scope);
  for (const tile of (await client.query<TileAddress>(STORED_TILES)).rows.filter(scope)) await client.query(DELETE_TILE, [tile.z, tile.x, tile.y]);
  for (const tile of crowded) await client.query(INSERT_TILE, [tile.z, tile.x, tile.y, await runAsync(crowdedTilePlan(tile, POSTGRES_TILE_SQL), query)]);
}
