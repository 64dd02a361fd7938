// Whether a PostgreSQL database is a streaming replica, and how far behind its primary.
import type pg from 'pg';
import type { Replication } from './store.js';
import { StoreError } from './store.js';

/**
 * The lag is how old the last replayed commit is, except when everything received has been
 * replayed while a WAL receiver runs: then the replica is level with the primary (an idle
 * primary commits nothing, so the timestamp would age without the replica being behind).
 * Without a receiver (primary unreachable) nothing says it is level, so the age stands.
 * pg_stat_wal_receiver shows any user a row (its pid) while a receiver runs.
 */
const REPLICATION_SQL = `SELECT pg_is_in_recovery() AS replica,
  CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver) THEN 0
       ELSE extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8 END AS lag`;

export async function readReplication(client: pg.ClientBase | pg.Pool): Promise<Replication> {
  const { rows } = await client.query(REPLICATION_SQL);
  const row = rows[0] as { replica: boolean; lag: number | null };
  if (!row.replica) return { role: 'primary' };
  return { role: 'replica', lagSeconds: row.lag === null ? null : Math.max(0, row.lag) };
}

/** import, migrate and export change or must read the primary: refused on a replica before anything runs. */
export async function refuseReplica(client: pg.ClientBase, where: string): Promise<void> {
  const { rows } = await client.query('SELECT pg_is_in_recovery() AS replica');
  if (rows[0].replica) {
    throw new StoreError(`${where} is a read-only replica (a standby in recovery): point import, migrate and export at the primary. Nothing was changed.`);
  }
}
