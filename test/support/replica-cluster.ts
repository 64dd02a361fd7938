// A second PostgreSQL cluster on this machine, a streaming replica of the tests' database
// server (or the bench's: `npm run bench -- --replica`): `pg_basebackup -R` into a temporary
// folder, its own port, started and stopped with `pg_ctl`, removed at the end. PostgreSQL refuses to run as root, so as root every
// command runs as the postgres OS user (runuser), which must own the folder.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { TEST_PG_URL, withPgClient } from './stores.js';

const run = promisify(execFile);

export interface Replica {
  /** The primary's URL with the replica's port. */
  url: string;
  primaryUrl: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it (if running) and deletes its folder. */
  remove(): Promise<void>;
}

/** Settings a hot standby must have at least as high as its primary's, or it will not start. */
const MATCHED_SETTINGS = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'];

const asRoot = process.getuid?.() === 0;

/** A PostgreSQL program, run as the postgres OS user when we are root. */
function command(binDir: string, program: string, args: string[]): [string, string[]] {
  const file = path.join(binDir, program);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

async function runPg(binDir: string, program: string, args: string[]): Promise<void> {
  const [file, argv] = command(binDir, program, args);
  try {
    await run(file, argv, { timeout: 120_000 });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${program} ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

/** The primary's binaries folder (its major version), and the settings the standby must match. */
async function primaryFacts(primaryUrl: string): Promise<{ binDir: string; matched: Record<string, string> }> {
  return withPgClient(async (client) => {
    const major = Math.floor(Number((await client.query('SHOW server_version_num')).rows[0].server_version_num) / 10_000);
    const rows = (await client.query('SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [MATCHED_SETTINGS])).rows;
    const binDir = process.env.HERITAGE_TEST_PG_BIN ?? `/usr/lib/postgresql/${major}/bin`;
    return { binDir, matched: Object.fromEntries(rows.map((r) => [r.name, r.setting])) };
  }, primaryUrl);
}

/** The base backup carries no configuration (Debian keeps it in /etc): the standby's own. */
function writeConfiguration(dir: string, dataDir: string, port: number, matched: Record<string, string>): void {
  const lines = [
    `port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`, 'hot_standby = on',
    `hba_file = '${path.join(dataDir, 'pg_hba.conf')}'`, `ident_file = '${path.join(dataDir, 'pg_ident.conf')}'`,
    // A throwaway copy: durability would only cost the shared machine disk writes.
    'fsync = off', 'logging_collector = off',
    ...Object.entries(matched).map(([name, value]) => `${name} = ${value}`),
  ];
  fs.writeFileSync(path.join(dataDir, 'postgresql.conf'), lines.join('\n') + '\n');
  fs.writeFileSync(path.join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  fs.writeFileSync(path.join(dataDir, 'pg_ident.conf'), '');
}

function ownByPostgres(dir: string): void {
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
}

/** Base backup, configuration, start; resolves once the replica answers read-only queries. */
export async function startReplica(primaryUrl = TEST_PG_URL): Promise<Replica> {
  const { binDir, matched } = await primaryFacts(primaryUrl);
  const primary = new URL(primaryUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-api-replica-'));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  ownByPostgres(dir);
  const ctl = (args: string[]) => runPg(binDir, 'pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'log'), '-w', '-t', '60', ...args]);
  let running = false;
  const stopNow = () => {
    if (!running) return;
    const [file, argv] = command(binDir, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    execFileSync(file, argv, { stdio: 'ignore' });
  };
  // A test process that dies half-way must not leave a cluster running.
  process.once('exit', stopNow);
  const replica: Replica = {
    url: Object.assign(new URL(primaryUrl), { port: String(port) }).toString(),
    primaryUrl,
    start: async () => {
      await ctl(['start']);
      running = true;
    },
    stop: async () => {
      await ctl(['-m', 'fast', 'stop']);
      running = false;
    },
    remove: async () => {
      if (running) await replica.stop();
      process.off('exit', stopNow);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await runPg(binDir, 'pg_basebackup', ['-h', primary.hostname, '-p', primary.port || '5432', '-U', primary.username || 'postgres', '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast']);
    writeConfiguration(dir, dataDir, port, matched);
    ownByPostgres(dir);
    await replica.start();
    return replica;
  } catch (error) {
    await replica.remove().catch(() => undefined);
    throw error;
  }
}

/** Resolves once the replica has replayed everything the primary had written when called. */
export async function caughtUp(replica: Replica): Promise<void> {
  const target = await withPgClient(async (c) => (await c.query('SELECT pg_current_wal_lsn() AS lsn')).rows[0].lsn as string, replica.primaryUrl);
  const deadline = Date.now() + 60_000;
  await withReplicaClient(replica, async (c) => {
    while (Date.now() < deadline) {
      const { rows } = await c.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [target]);
      if (rows[0].done) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the replica did not replay up to ${target} within 60 s`);
  });
}

export function withReplicaClient<T>(replica: Replica, work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withPgClient(work, replica.url);
}

