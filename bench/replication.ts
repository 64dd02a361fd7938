// npm run bench -- --replica [--scale S] [--rounds N]: how far behind a streaming replica
// runs (a second cluster on this machine, test/support/replica-cluster.ts). Small commits on
// the primary, each timed until the replica shows it; then imports of the demo catalogue
// into the primary, each timed from its commit to the replica holding it and to a server
// reading the replica (VERSION_POLL_MS as given, default 1000) answering a cached page with
// the new catalogue, with the largest lag its /readyz reported meanwhile. Loopback: the delay measured is
// the replica's replay, not a network's.
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { generateDemoCatalogue } from '../src/demo/demo.js';
import { startServer } from '../src/server.js';
import { openStore } from '../src/store/open.js';
import { replaceCatalogue } from '../src/store/apply/replace.js';
import { caughtUp, startReplica } from '../test/support/replica-cluster.js';

export interface ReplicationBench {
  primaryUrl: string;
  scale: number;
  rounds: number;
  log: (line: string) => void;
}

const PROBES = 100;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

function percentiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

/** Polls `check` every millisecond or so; the time it first holds. */
async function firstTrue(check: () => Promise<boolean>): Promise<number> {
  while (!(await check())) await pause(1);
  return performance.now();
}

/** Each small commit: from COMMIT returning on the primary to the row readable on the replica. */
async function probeCommits(primary: pg.Client, replica: pg.Client, schema: string): Promise<number[]> {
  await primary.query(`CREATE TABLE ${schema}.replication_probe (n integer PRIMARY KEY)`);
  const delays: number[] = [];
  for (let n = 1; n <= PROBES; n++) {
    await primary.query(`INSERT INTO ${schema}.replication_probe VALUES ($1)`, [n]);
    const committed = performance.now();
    // The table itself arrives by replication too: to_regclass waits for it without an error.
    const seen = await firstTrue(async () => (await replica.query(`SELECT to_regclass($1) IS NOT NULL AND EXISTS (SELECT 1 FROM ${schema}.replication_probe WHERE n = $2) AS seen`, [`${schema}.replication_probe`, n]).catch(() => ({ rows: [{ seen: false }] }))).rows[0].seen);
    delays.push(seen - committed);
  }
  return delays;
}

export async function runReplicationBench({ primaryUrl, scale, rounds, log }: ReplicationBench): Promise<void> {
  const schema = `heritage_bench_replica_${process.pid}`;
  const replica = await startReplica(primaryUrl);
  const primaryClient = await connect(primaryUrl);
  let replicaClient: pg.Client | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const settings = { database: primaryUrl, databaseSchema: schema };
    const importDemo = async (seed: number) => {
      const store = await openStore(loadConfig(settings, {}), { create: true });
      try {
        await replaceCatalogue(store, generateDemoCatalogue({ scale, seed }));
      } finally {
        await store.close();
      }
    };
    await importDemo(1);
    await caughtUp(replica);
    replicaClient = await connect(replica.url);
    log(`replication: a streaming replica on this machine (loopback), demo scale ${scale}`);
    log(`  small commits (${PROBES}), COMMIT on the primary → visible on the replica: ${percentiles(await probeCommits(primaryClient, replicaClient, schema))}`);

    server = await startServer(loadConfig({ database: replica.url, databaseSchema: schema, port: '0', logLevel: 'silent' }, process.env));
    const readyz = async () => (await fetch(`${server!.address}/readyz`)).json() as Promise<{ replica_lag_seconds: number | null }>;
    // A page asked again and again is answered from the answer cache at the version the server
    // last polled, so it changes once the server has noticed the import, as users see it.
    const firstPage = async () => (await fetch(`${server!.address}/api/v1/features/`)).text();
    const versionOn = async (client: pg.Client) => Number((await client.query(`SELECT value FROM ${schema}.meta WHERE key = 'catalogue_version'`)).rows[0].value);
    const replicaDelays: number[] = [];
    const serverDelays: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = await versionOn(primaryClient);
      const oldPage = await firstPage();
      let maxLag = 0;
      let importing = true;
      const sampling = (async () => {
        while (importing) {
          maxLag = Math.max(maxLag, (await readyz()).replica_lag_seconds ?? 0);
          await pause(50);
        }
      })();
      const loading = importDemo(2 + round);
      const committed = await firstTrue(async () => (await versionOn(primaryClient)) > before);
      const onReplica = firstTrue(async () => (await versionOn(replicaClient!)) > before);
      const onServer = firstTrue(async () => (await firstPage()) !== oldPage);
      const [replicaAt, serverAt] = await Promise.all([onReplica, onServer]);
      await loading;
      importing = false;
      await sampling;
      replicaDelays.push(replicaAt - committed);
      serverDelays.push(serverAt - committed);
      log(`  import ${round + 1}: commit → replica ${(replicaAt - committed).toFixed(1)} ms, → server on the replica ${(serverAt - committed).toFixed(0)} ms; largest /readyz lag meanwhile ${maxLag.toFixed(3)} s`);
    }
    log(`  imports (${rounds}): commit → replica ${percentiles(replicaDelays)}; → server answering the new version ${percentiles(serverDelays)} (VERSION_POLL_MS ${loadConfig({}, process.env).versionPollMs})`);
  } finally {
    await server?.close();
    await replicaClient?.end();
    await primaryClient.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await primaryClient.end();
    await replica.remove();
  }
}
