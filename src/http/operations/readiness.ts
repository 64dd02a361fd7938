// /readyz's answer, a pure function of what the store says: the catalogue version, and on
// PostgreSQL whether this is the primary or a replica and how far behind it is. A replica
// further behind than MAX_REPLICA_LAG_MS (or whose lag cannot be told while a limit is set)
// is not ready, so that balancers send its traffic to replicas that are up to date.
import type { Replication } from '../../store/store.js';

export interface ReadyAnswer {
  status: 200 | 503;
  body: Record<string, unknown>;
}

export function readinessOf(version: number, replication: Replication | null, maxLagMs: number | null): ReadyAnswer {
  if (replication === null) return { status: 200, body: { status: 'ready', catalogue_version: version } };
  if (replication.role === 'primary') return { status: 200, body: { status: 'ready', catalogue_version: version, database: 'primary' } };
  const lag = replication.lagSeconds === null ? null : Math.round(replication.lagSeconds * 1000) / 1000;
  const lagging = maxLagMs !== null && (lag === null || lag * 1000 > maxLagMs);
  const body = { status: lagging ? 'lagging' : 'ready', catalogue_version: version, database: 'replica', replica_lag_seconds: lag };
  return { status: lagging ? 503 : 200, body };
}
