// `serve --workers N`: a primary process that forks N servers sharing one port (node's
// cluster), restarts a worker that dies, gathers the workers' metrics for /metrics, and on
// SIGTERM/SIGINT stops them all gracefully.
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { primaryBarrier } from '../cluster-drain.js';
import type { Config } from '../config.js';
import { serveClusterMetrics } from '../http/operations/cluster-metrics.js';
import { ACCEPT_LIMIT_MS } from '../shutdown.js';

const RESTART_PAUSE_MS = 1000;
/** A worker still running this long after its own drain deadline is killed. */
const STOP_MARGIN_MS = 5000;

export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/** True outside a cluster, and in the first worker forked (not in one restarted later). */
export function isFirstWorker(): boolean {
  return cluster.isPrimary || cluster.worker?.id === 1;
}

/** A worker's IPC channel keeps it alive: close it once the server has stopped. */
export function leaveCluster(): void {
  cluster.worker?.disconnect();
}

/** Runs in the primary until a signal stops every worker, or no worker can start; returns the exit code. */
export async function runPrimary(count: number, config: Pick<Config, 'shutdownDelayMs' | 'shutdownTimeoutMs' | 'metrics'>): Promise<number> {
  let stopping = false;
  if (config.metrics) serveClusterMetrics();
  let signal: NodeJS.Signals = 'SIGTERM';
  let listened = false;
  let address: AddressInfo | null = null;
  const fork = (): Worker => cluster.fork();
  let failedAtStart = 0;
  cluster.on('listening', (_worker, listening) => {
    if (!listened) for (; failedAtStart > 0; failedAtStart--) fork();
    listened = true;
    address = { address: listening.address ?? '', port: listening.port, family: String(listening.addressType) };
  });
  const code = await new Promise<number>((resolve) => {
    const stop = (received: NodeJS.Signals) => {
      signal = received;
      resolve(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    cluster.on('exit', (worker, exitCode, signal) => {
      if (stopping) return;
      // Before any worker listened, the next would fail the same way (a busy port, a database
      // away): once every worker has failed (each has said why), stop. One that failed while
      // another then listened is replaced at that moment.
      if (!listened) {
        if (++failedAtStart === count) resolve(1);
        return;
      }
      // A worker that left after draining (SIGTERM to it, or to the whole process group) was
      // stopped on purpose; one that died otherwise crashed and is replaced.
      if (worker.exitedAfterDisconnect) return;
      process.stderr.write(`heritage-api: worker ${worker.process.pid} exited (${signal ?? exitCode}); starting another.\n`);
      // A pause, so that a worker failing at start-up does not spin the CPU.
      setTimeout(() => {
        if (!stopping) fork();
      }, RESTART_PAUSE_MS).unref();
    });
    for (let i = 0; i < count; i++) fork();
  });
  stopping = true;
  if (code !== 0) process.stderr.write('heritage-api: no worker could start (the reason is above); stopping.\n');
  // The workers get the same signal: on SIGTERM each waits SHUTDOWN_DELAY_MS (they read the
  // same settings), on SIGINT none does.
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const delayMs = signal === 'SIGTERM' ? config.shutdownDelayMs : 0;
  const stopped = Promise.all(workers.map((w) => stopWorker(w, signal, delayMs + config.shutdownTimeoutMs + STOP_MARGIN_MS)));
  // No worker closes its server (the primary's socket closes with the last) until all
  // connections already established have been handed out.
  await primaryBarrier(workers, address, Math.min(delayMs + 3 * ACCEPT_LIMIT_MS, delayMs + config.shutdownTimeoutMs));
  await stopped;
  return code;
}

function stopWorker(worker: Worker, signal: NodeJS.Signals, killAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve();
    const kill = setTimeout(() => worker.process.kill('SIGKILL'), killAfterMs);
    worker.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    worker.process.kill(signal);
  });
}
