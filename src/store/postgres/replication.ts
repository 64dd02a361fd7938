// Whether a PostgreSQL database is a streaming replica, and how far behind its primary.
import type pg from 'pg';
import type { Replication } from '../store.js';
import { StoreError } from '../store.js';

/** WAL positions as byte offsets (exact below 2^53 bytes). pg_stat_wal_receiver shows any user a row while a receiver runs. */
const REPLICATION_SQL = `SELECT pg_is_in_recovery() AS replica,
  EXISTS (SELECT 1 FROM pg_stat_wal_receiver) AS streaming,
  pg_wal_lsn_diff(pg_last_wal_receive_lsn(), '0/0')::float8 AS received,
  pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::float8 AS replayed,
  extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8 AS commit_age`;

export interface ReplicaSample {
  replica: boolean;
  streaming: boolean;
  received: number | null;
  replayed: number | null;
  /** Seconds since the last commit the replica replayed was made on the primary. */
  commit_age: number | null;
}

const KEPT_SAMPLES = 64;

/**
 * The lag of a replica, in seconds. The usual measure is the age of the last replayed commit,
 * or 0 when everything received is replayed; alone it ages while the primary runs one long
 * transaction (an import: WAL streams and is replayed, but no commit comes for a while), and
 * a replica keeping up would look minutes behind. So each probe remembers how much WAL had
 * arrived when: once the replica has replayed what had arrived at an earlier probe, it holds
 * at least what the primary had sent by then, and the lag is at most the time since that probe.
 * Without a WAL receiver (primary unreachable) only the commit's age is known.
 */
export class ReplicaLag {
  private samples: { at: number; received: number }[] = [];

  lagOf(sample: ReplicaSample, now: number): number | null {
    const { streaming, received, replayed, commit_age: commitAge } = sample;
    if (!streaming || received === null || replayed === null) return commitAge === null ? null : Math.max(0, commitAge);
    const keptUp = this.samples.findLast((s) => s.received <= replayed);
    this.samples.push({ at: now, received });
    if (this.samples.length > KEPT_SAMPLES) this.samples.shift();
    if (received <= replayed) return 0;
    const bounds = [commitAge, keptUp === undefined ? null : (now - keptUp.at) / 1000].filter((b): b is number => b !== null);
    return bounds.length === 0 ? null : Math.max(0, Math.min(...bounds));
  }
}

export async function readReplication(client: pg.ClientBase | pg.Pool, lag: ReplicaLag): Promise<Replication> {
  const { rows } = await client.query(REPLICATION_SQL);
  const sample = rows[0] as ReplicaSample;
  if (!sample.replica) return { role: 'primary' };
  return { role: 'replica', lagSeconds: lag.lagOf(sample, performance.now()) };
}

/** import, migrate and export change or must read the primary: refused on a replica before anything runs. */
export async function refuseReplica(client: pg.ClientBase, where: string): Promise<void> {
  const { rows } = await client.query('SELECT pg_is_in_recovery() AS replica');
  if (rows[0].replica) {
    throw new StoreError(`${where} is a read-only replica (a standby in recovery): point import, migrate and export at the primary. Nothing was changed.`);
  }
}
