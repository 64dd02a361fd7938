// Crowded tiles (see tiles/crowded.ts) are made once per import, inside the import's
// transaction, so that no tile asked for later costs more than CROWDED_ABOVE footprints.
// Neither store holds the catalogue in memory for it: the crowded tiles are found by
// counting in the index, and each is made from rows streamed through the encoder (SQLite)
// or by PostGIS itself.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Box } from '../search/box.js';
import { CROWDED_ABOVE, runCrowdedSearch, runCrowdedSearchAsync, tilesMeeting, type TileScope } from '../tiles/crowded.js';
import { encodeTile } from '../tiles/encode.js';
import { tileBox, type TileAddress } from '../tiles/grid.js';
import { toSqlite } from './sql.js';
import {
  POSTGRES_TILE_MVT,
  SQLITE_TILE_CANDIDATES,
  SQLITE_TILE_COUNT,
  postgresTileParams,
  sqliteTileParams,
  tileFeatures,
  type SqliteTileRow,
} from './tile-plans.js';

const EVERY_TILE: TileScope = () => true;

export function precomputeSqliteTiles(db: Database.Database): void {
  db.prepare('DELETE FROM tiles').run();
  makeSqliteTiles(db, EVERY_TILE);
}

/**
 * After an apply: the stored tiles these boxes (the changed footprints, old and new) meet
 * are stale. Each is made again while still crowded, or dropped; tiles that became crowded
 * are made. No other tile's footprints changed.
 */
export function refreshSqliteTiles(db: Database.Database, boxes: readonly Box[]): void {
  const scope = tilesMeeting(boxes);
  const remove = db.prepare('DELETE FROM tiles WHERE z = ? AND x = ? AND y = ?');
  for (const tile of db.prepare('SELECT z, x, y FROM tiles').all() as TileAddress[]) if (scope(tile)) remove.run(tile.z, tile.x, tile.y);
  makeSqliteTiles(db, scope);
}

/** The crowded tiles in scope, made and stored. */
function makeSqliteTiles(db: Database.Database, scope: TileScope): void {
  const count = db.prepare(toSqlite(SQLITE_TILE_COUNT)).pluck();
  const crowded = runCrowdedSearch((tile) => count.get(...sqliteTileParams(tile)) as number, CROWDED_ABOVE, scope);
  const candidates = db.prepare(toSqlite(SQLITE_TILE_CANDIDATES));
  const insert = db.prepare('INSERT INTO tiles (z, x, y, mvt) VALUES (?, ?, ?, ?)');
  for (const tile of crowded) {
    const rows = candidates.iterate(...sqliteTileParams(tile)) as IterableIterator<SqliteTileRow>;
    // The statement is busy until its rows are read to the end, so the insert comes after.
    const bytes = encodeTile(tile, tileFeatures(rows));
    insert.run(tile.z, tile.x, tile.y, bytes);
  }
}

/** The buffered tile's lon/lat box from tileBox(), as SQLite counts: a web-mercator envelope with a margin reaches past the poles at low zooms, where ST_Transform gives nothing. */
const POSTGRES_COUNT = 'SELECT count(*)::int AS n FROM features WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)';

export async function precomputePostgresTiles(client: pg.ClientBase): Promise<void> {
  await client.query('DELETE FROM tiles');
  await makePostgresTiles(client, EVERY_TILE);
}

/** As refreshSqliteTiles. */
export async function refreshPostgresTiles(client: pg.ClientBase, boxes: readonly Box[]): Promise<void> {
  const scope = tilesMeeting(boxes);
  const stored = (await client.query<TileAddress>('SELECT z, x, y FROM tiles')).rows.filter(scope);
  if (stored.length > 0) {
    await client.query('DELETE FROM tiles t USING unnest($1::int[], $2::int[], $3::int[]) AS s(z, x, y) WHERE t.z = s.z AND t.x = s.x AND t.y = s.y',
      [stored.map((t) => t.z), stored.map((t) => t.x), stored.map((t) => t.y)]);
  }
  await makePostgresTiles(client, scope);
}

async function makePostgresTiles(client: pg.ClientBase, scope: TileScope): Promise<void> {
  const crowded = await runCrowdedSearchAsync(async (tile) => (await client.query(POSTGRES_COUNT, [...tileBox(tile)])).rows[0].n as number, CROWDED_ABOVE, scope);
  const insert = `INSERT INTO tiles (z, x, y, mvt) SELECT $1, $2, $3, NULLIF((${POSTGRES_TILE_MVT}), ''::bytea)`;
  for (const tile of crowded) await client.query(insert, postgresTileParams(tile));
}
