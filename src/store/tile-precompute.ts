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
import { spliceTile } from '../tiles/splice.js';
import { tileBox, type TileAddress } from '../tiles/grid.js';
import { toSqlite } from './sql.js';
import {
  POSTGRES_TILE_MVT,
  POSTGRES_TILE_MVT_OF_FEATURES,
  SQLITE_TILE_FEATURES,
  sqliteTileCountUpTo,
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
 * After an apply: the crowded tiles these boxes (the changed footprints, old and new) meet
 * are stale. One still crowded has the features of `ids` (every changed feature) taken out
 * and put in again as they now are (tiles/splice.ts); one no longer crowded is dropped; one
 * newly crowded is made whole. No other tile's footprints changed.
 */
export function refreshSqliteTiles(db: Database.Database, boxes: readonly Box[], ids: readonly number[]): void {
  const scope = tilesMeeting(boxes);
  const stored = new Set((db.prepare('SELECT z, x, y FROM tiles').all() as TileAddress[]).filter(scope).map(tileKey));
  const count = db.prepare(toSqlite(sqliteTileCountUpTo(CROWDED_ABOVE))).pluck();
  const crowded = runCrowdedSearch((tile) => count.get(...sqliteTileParams(tile)) as number, CROWDED_ABOVE, scope);
  const remove = db.prepare('DELETE FROM tiles WHERE z = ? AND x = ? AND y = ?');
  const keep = new Set(crowded.map(tileKey));
  for (const key of stored) if (!keep.has(key)) remove.run(...key.split('/').map(Number));
  const rows = db.prepare(`${SQLITE_TILE_FEATURES} WHERE f.id IN (SELECT value FROM json_each(?)) ORDER BY f.id`).all(JSON.stringify(ids)) as SqliteTileRow[];
  const changed = [...tileFeatures(rows)];
  const read = db.prepare('SELECT mvt FROM tiles WHERE z = ? AND x = ? AND y = ?').pluck();
  const write = db.prepare('UPDATE tiles SET mvt = ? WHERE z = ? AND x = ? AND y = ?');
  for (const tile of crowded) {
    if (!stored.has(tileKey(tile))) makeSqliteTile(db, tile);
    else write.run(spliceTile(read.get(tile.z, tile.x, tile.y) as Buffer | null, new Set(ids), encodeTile(tile, changed)), tile.z, tile.x, tile.y);
  }
}

const tileKey = ({ z, x, y }: TileAddress) => `${z}/${x}/${y}`;

/** The crowded tiles in scope, made and stored. */
function makeSqliteTiles(db: Database.Database, scope: TileScope): void {
  const count = db.prepare(toSqlite(SQLITE_TILE_COUNT)).pluck();
  for (const tile of runCrowdedSearch((t) => count.get(...sqliteTileParams(t)) as number, CROWDED_ABOVE, scope)) makeSqliteTile(db, tile);
}

function makeSqliteTile(db: Database.Database, tile: TileAddress): void {
  const rows = db.prepare(toSqlite(SQLITE_TILE_CANDIDATES)).iterate(...sqliteTileParams(tile)) as IterableIterator<SqliteTileRow>;
  // The statement is busy until its rows are read to the end, so the insert comes after.
  const bytes = encodeTile(tile, tileFeatures(rows));
  db.prepare('INSERT INTO tiles (z, x, y, mvt) VALUES (?, ?, ?, ?)').run(tile.z, tile.x, tile.y, bytes);
}

/** The buffered tile's lon/lat box from tileBox(), as SQLite counts: a web-mercator envelope with a margin reaches past the poles at low zooms, where ST_Transform gives nothing. */
const POSTGRES_COUNT = 'SELECT count(*)::int AS n FROM features WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)';

export async function precomputePostgresTiles(client: pg.ClientBase): Promise<void> {
  await client.query('DELETE FROM tiles');
  await makePostgresTiles(client, EVERY_TILE);
}

/** As refreshSqliteTiles; the changed features' small tile made by PostGIS, as every tile. */
export async function refreshPostgresTiles(client: pg.ClientBase, boxes: readonly Box[], ids: readonly number[]): Promise<void> {
  const scope = tilesMeeting(boxes);
  const stored = new Set((await client.query<TileAddress>('SELECT z, x, y FROM tiles')).rows.filter(scope).map(tileKey));
  const crowded = await runCrowdedSearchAsync(countPostgres(client, POSTGRES_COUNT_UP_TO), CROWDED_ABOVE, scope);
  const keep = new Set(crowded.map(tileKey));
  for (const key of stored) if (!keep.has(key)) await client.query('DELETE FROM tiles WHERE z = $1 AND x = $2 AND y = $3', key.split('/').map(Number));
  for (const tile of crowded) {
    if (!stored.has(tileKey(tile))) {
      await makePostgresTile(client, tile);
      continue;
    }
    const [old] = (await client.query('SELECT mvt FROM tiles WHERE z = $1 AND x = $2 AND y = $3', [tile.z, tile.x, tile.y])).rows;
    const [made] = (await client.query(POSTGRES_TILE_MVT_OF_FEATURES, [...postgresTileParams(tile), ids])).rows;
    const added = made?.st_asmvt?.length ? (made.st_asmvt as Buffer) : null;
    const bytes = spliceTile((old?.mvt as Buffer | null) ?? null, new Set(ids), added);
    await client.query('UPDATE tiles SET mvt = $1 WHERE z = $2 AND x = $3 AND y = $4', [bytes, tile.z, tile.x, tile.y]);
  }
}

const countPostgres = (client: pg.ClientBase, sql = POSTGRES_COUNT) => async (tile: TileAddress) => (await client.query(sql, [...tileBox(tile)])).rows[0].n as number;

/** As sqliteTileCountUpTo. */
const POSTGRES_COUNT_UP_TO = `SELECT count(*)::int AS n FROM (SELECT 1 FROM features WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326) LIMIT ${CROWDED_ABOVE + 1}) t`;

async function makePostgresTiles(client: pg.ClientBase, scope: TileScope): Promise<void> {
  for (const tile of await runCrowdedSearchAsync(countPostgres(client), CROWDED_ABOVE, scope)) await makePostgresTile(client, tile);
}

async function makePostgresTile(client: pg.ClientBase, tile: TileAddress): Promise<void> {
  await client.query(`INSERT INTO tiles (z, x, y, mvt) SELECT $1, $2, $3, NULLIF((${POSTGRES_TILE_MVT}), ''::bytea)`, postgresTileParams(tile));
}
