// `serve --workers N`: a primary process that forks N servers sharing one port (node's
// cluster), restarts a worker that dies, and on SIGTERM/SIGINT stops them all gracefully.
import cluster, { type Worker } from 'node:cluster';

const RESTART_PAUSE_MS = 1000;
/** A worker still running this long after its own drain deadline is killed. */
const STOP_MARGIN_MS = 5000;

export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/** A worker's IPC channel keeps it alive: close it once the server has stopped. */
export function leaveCluster(): void {
  cluster.worker?.disconnect();
}

/** Runs in the primary until a signal stops every worker; returns the exit code. */
export async function runPrimary(count: number, shutdownTimeoutMs: number): Promise<number> {
  let stopping = false;
  const fork = (): Worker => cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    // A worker that left after draining (SIGTERM to it, or to the whole process group) was
    // stopped on purpose; one that died otherwise crashed and is replaced.
    if (stopping || worker.exitedAfterDisconnect) return;
    process.stderr.write(`heritage-api: worker ${worker.process.pid} exited (${signal ?? code}); starting another.\n`);
    // A pause, so that a worker failing at start-up does not spin the CPU.
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_PAUSE_MS).unref();
  });
  for (let i = 0; i < count; i++) fork();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  stopping = true;
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  await Promise.all(workers.map((w) => stopWorker(w, shutdownTimeoutMs + STOP_MARGIN_MS)));
  return 0;
}

function stopWorker(worker: Worker, killAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve();
    const kill = setTimeout(() => worker.process.kill('SIGKILL'), killAfterMs);
    worker.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    worker.process.kill('SIGTERM');
  });
}
