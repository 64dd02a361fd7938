// Crowded tiles (see tiles/crowded.ts) are made once per import, inside the import's
// transaction, so that no tile asked for later costs more than CROWDED_ABOVE footprints or CROWDED_POSITIONS positions, and
// edited by an apply inside its own. Both are plans written once (tile-plans.ts); here each
// store runs them. Neither holds the catalogue in memory: the crowded tiles are found by
// counting in the index, each made from its footprints read in batches, or edited where a
// change reaches it.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { TileChange } from '../../tiles/edit.js';
import { runAsync, runSync, type Plan, type Query } from '../read-plans.js';
import { toSqlite } from '../sql.js';
import { POSTGRES_TILE_SQL, SQLITE_TILE_SQL, makeTilesPlan, refreshTilesPlan } from '../tiles/tile-plans.js';

/** At import: every crowded tile made, and the previous catalogue's dropped. */
export function precomputeSqliteTiles(db: Database.Database): void {
  runSqlite(db, makeTilesPlan(SQLITE_TILE_SQL));
}

export async function precomputePostgresTiles(client: pg.ClientBase): Promise<void> {
  await runPostgres(client, makeTilesPlan(POSTGRES_TILE_SQL));
}

/** After an apply: the stored tiles its changed features reach edited, dropped or made (tile-plans.ts refreshTilesPlan). */
export function refreshSqliteTiles(db: Database.Database, changes: readonly TileChange[]): void {
  runSqlite(db, refreshTilesPlan(changes, SQLITE_TILE_SQL));
}

export async function refreshPostgresTiles(client: pg.ClientBase, changes: readonly TileChange[]): Promise<void> {
  await runPostgres(client, refreshTilesPlan(changes, POSTGRES_TILE_SQL));
}

function runSqlite<R>(db: Database.Database, plan: Plan<R>): R {
  const statements = new Map<string, Database.Statement>();
  return runSync(plan, ({ sql, params }: Query) => {
    if (!statements.has(sql)) statements.set(sql, db.prepare(toSqlite(sql)));
    const statement = statements.get(sql)!;
    if (statement.reader) return statement.all(...params);
    statement.run(...params);
    return [];
  });
}

function runPostgres<R>(client: pg.ClientBase, plan: Plan<R>): Promise<R> {
  return runAsync(plan, async ({ sql, params }: Query) => (await client.query(sql, params)).rows);
}
