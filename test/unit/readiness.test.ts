// /readyz's answer from the version and the store's place in replication (readiness.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readinessOf } from '../../src/http/operations/readiness.js';
import type { Replication } from '../../src/store/store.js';

const replica = (lagSeconds: number | null): Replication => ({ role: 'replica', lagSeconds });

const CASES: { name: string; replication: Replication | null; maxLagMs: number | null; status: number; body: object }[] = [
  { name: 'SQLite: no replication', replication: null, maxLagMs: 1000, status: 200, body: { status: 'ready', catalogue_version: 7 } },
  { name: 'primary, a limit set', replication: { role: 'primary' }, maxLagMs: 0, status: 200, body: { status: 'ready', catalogue_version: 7, database: 'primary' } },
  { name: 'replica level, no limit', replication: replica(0), maxLagMs: null, status: 200, body: { status: 'ready', catalogue_version: 7, database: 'replica', replica_lag_seconds: 0 } },
  { name: 'replica far behind, no limit', replication: replica(3600), maxLagMs: null, status: 200, body: { status: 'ready', catalogue_version: 7, database: 'replica', replica_lag_seconds: 3600 } },
  { name: 'replica exactly at the limit', replication: replica(2.5), maxLagMs: 2500, status: 200, body: { status: 'ready', catalogue_version: 7, database: 'replica', replica_lag_seconds: 2.5 } },
  { name: 'replica past the limit', replication: replica(2.501), maxLagMs: 2500, status: 503, body: { status: 'lagging', catalogue_version: 7, database: 'replica', replica_lag_seconds: 2.501 } },
  { name: 'lag rounded to the millisecond', replication: replica(0.12345), maxLagMs: null, status: 200, body: { status: 'ready', catalogue_version: 7, database: 'replica', replica_lag_seconds: 0.123 } },
  { name: 'lag unknown, no limit', replication: replica(null), maxLagMs: null, status: 200, body: { status: 'ready', catalogue_version: 7, database: 'replica', replica_lag_seconds: null } },
  { name: 'lag unknown, a limit set', replication: replica(null), maxLagMs: 60_000, status: 503, body: { status: 'lagging', catalogue_version: 7, database: 'replica', replica_lag_seconds: null } },
];

for (const c of CASES) {
  test(`readyz: ${c.name}`, () => {
    assert.deepEqual(readinessOf(7, c.replication, c.maxLagMs), { status: c.status, body: c.body });
  });
}
