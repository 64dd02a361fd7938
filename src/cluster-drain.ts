// The accept barrier of a graceful shutdown under `serve --workers` (see shutdown.ts for a
// lone process). The primary holds the listening socket and hands each connection to a
// worker; once every worker has closed its server the primary closes the socket, and the
// kernel resets whatever it still holds. So no worker closes until the primary says:
//   1. each worker, its own accept loop quiet, tells the primary and keeps serving;
//   2. the primary, once all have, connects to the port itself (the probe): the kernel
//      queued it behind every connection already established;
//   3. a worker that is handed the probe reports it; every connection before it has been
//      sent to some worker, and IPC to a worker keeps its order, so the primary's
//      "close" reaches each worker after the connections sent to it;
//   4. every worker closes its server.
// Each side gives up waiting at a limit, so a worker that died or hangs never blocks the rest.
import cluster, { type Worker } from 'node:cluster';
import net, { type Server, type Socket } from 'node:net';

const QUIET = 'heritage-drain-quiet';
const ACCEPTED = 'heritage-drain-accepted';
const CLOSE = 'heritage-drain-close';

interface DrainMessage {
  type?: string;
  port?: number;
}

/** In a worker: reports quiet, reports the connections it is handed, and resolves on the primary's word (or at the limit). */
export function workerBarrier(server: Server, limitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const report = (socket: Socket) => process.send?.({ type: ACCEPTED, port: socket.remotePort });
    const done = () => {
      clearTimeout(timer);
      server.off('connection', report);
      process.off('message', onMessage);
      resolve();
    };
    const onMessage = (message: DrainMessage) => {
      if (message?.type === CLOSE) done();
    };
    const timer = setTimeout(done, limitMs);
    server.on('connection', report);
    process.on('message', onMessage);
    process.send?.({ type: QUIET });
  });
}

/** Loopback for a wildcard address: where the primary's probe connects. */
export function probeHost(address: string): string {
  if (address === '::') return '::1';
  if (address === '0.0.0.0' || address === '') return '127.0.0.1';
  return address;
}

/** In the primary, once the workers have the signal: the barrier's steps 2 and 3, then the word to close. */
export async function primaryBarrier(workers: Worker[], listening: net.AddressInfo | null, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  const live = workers.filter((w) => !w.isDead());
  await untilEach(live, (message) => message.type === QUIET, deadline);
  if (listening !== null) await probeAccepted(live, listening, deadline);
  for (const w of live) if (w.isConnected()) w.send({ type: CLOSE });
}

async function probeAccepted(workers: Worker[], listening: net.AddressInfo, deadline: number): Promise<void> {
  const probe = net.connect({ port: listening.port, host: probeHost(listening.address) });
  probe.on('error', () => {});
  await new Promise<void>((resolve) => probe.once('connect', resolve).once('error', resolve).once('close', resolve));
  const port = probe.localPort;
  if (port !== undefined) await untilAny(workers, (message) => message?.type === ACCEPTED && message.port === port, deadline);
  probe.destroy();
}

/** Resolves once every worker has sent a matching message, exited, or the deadline passed. */
function untilEach(workers: Worker[], matches: (m: DrainMessage) => boolean, deadline: number): Promise<void> {
  const waiting = new Set<Worker | null>(workers);
  return watch((worker, message) => {
    if (message === null || matches(message)) waiting.delete(worker);
    return waiting.size === 0;
  }, deadline);
}

function untilAny(workers: Worker[], matches: (m: DrainMessage) => boolean, deadline: number): Promise<void> {
  const waiting = new Set<Worker | null>(workers);
  return watch((worker, message) => {
    if (message === null) waiting.delete(worker);
    return waiting.size === 0 || (message !== null && matches(message));
  }, deadline);
}

/** Feeds the cluster's messages (null: the worker exited) to `settled` until it says so, or the deadline. */
function watch(settled: (worker: Worker | null, message: DrainMessage | null) => boolean, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (worker: Worker, message: DrainMessage | undefined) => settled(worker, message ?? {}) && done();
    const onExit = (worker: Worker) => settled(worker, null) && done();
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    function done() {
      clearTimeout(timer);
      cluster.off('message', onMessage);
      cluster.off('exit', onExit);
      resolve();
    }
    cluster.on('message', onMessage);
    cluster.on('exit', onExit);
    // Nothing to wait for (no live worker).
    if (settled(null, {})) done();
  });
}
