// Graceful shutdown. On drain every connection the kernel has already established is
// accepted first, then the listener closes (new connections are refused); every request
// already received is answered in full, with `Connection: close`; a request arriving on an
// open keep-alive connection during the drain is served the same way (not refused: the
// client could not know); idle connections are closed once they have been quiet for
// IDLE_GRACE_MS; at the deadline whatever is left is closed.
//
// Closing a listening socket makes the kernel reset every connection still waiting in its
// accept queue: established on the client's side, never seen by node. node accepts only
// when the event loop polls, so a busy server can have dozens waiting. The drain therefore
// lets the loop poll (and accept) until a turn passes with no new connection, then connects
// to itself and waits for that connection (a barrier: handshakes queued before it are done),
// and closes the listener right after that, with nothing left to reset but a connection
// arriving in that same instant (TCP has no way to stop a listener without refusing).
//
// node's own server.close() closes idle connections at once, which also catches a
// connection accepted a moment ago whose request has not been read yet; the short grace
// lets such a request arrive and be answered.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import cluster from 'node:cluster';
import net, { type Socket } from 'node:net';
import { probeHost, workerBarrier } from './cluster-drain.js';

/** How long a connection with no request in progress is left open during a drain. */
export const IDLE_GRACE_MS = 250;
const SWEEP_MS = 50;
/**
 * Before closing the listener, connections keep being accepted until a poll of the event
 * loop brought none and none has come for this long: under `serve --workers` they come from
 * the primary one at a time, each after the worker acknowledged the previous one; a lone
 * process under load was measured to need more than one poll too.
 */
const ACCEPT_QUIET_MS = 20;
/** A client that keeps connecting does not hold the listener open longer than this. */
export const ACCEPT_LIMIT_MS = 1000;

interface Connection {
  socket: Socket;
  /** The connection's latest response: its answers go out in order, so while it is unfinished the connection is busy. */
  last: ServerResponse | null;
  /** Responses in progress, counted from the drain on (before it nothing needs them). */
  active: number;
  idleSince: number;
  bytesRead: number;
  destroyed: boolean;
}

/**
 * Counts a response in progress until it closes; from then on the connection is idle, and
 * quiet if no byte comes for IDLE_GRACE_MS. Only during a drain: a listener per response,
 * and the time and bytes read noted at its close, cost every cached answer about 2,500
 * instructions (issue 48) for a record nothing reads outside a drain.
 */
function track(connection: Connection, response: ServerResponse): void {
  connection.active++;
  response.once('close', () => {
    connection.active--;
    connection.idleSince = Date.now();
    connection.bytesRead = connection.socket.bytesRead;
  });
}

/** Whether a response has been sent whole, or will never be. */
const isOver = (response: ServerResponse) => response.writableFinished || response.destroyed;

export interface DrainResult {
  /** Connections open when the drain began. */
  open: number;
  /** Connections closed at the deadline with a request still in progress. */
  cut: number;
}

export interface ConnectionDrainer {
  /** Stops accepting and resolves once every connection has closed (at the latest, at the deadline). */
  drain(timeoutMs: number): Promise<DrainResult>;
}

/** Starts tracking the server's connections and requests; call before it listens. */
export function trackConnections(server: Server): ConnectionDrainer {
  const connections = new Map<Socket, Connection>();
  let draining = false;
  let lastAccepted = 0;
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted++;
    lastAccepted = performance.now();
    connections.set(socket, { socket, last: null, active: 0, idleSince: Date.now(), bytesRead: 0, destroyed: false });
    socket.once('close', () => connections.delete(socket));
  });
  // Prepended: Fastify may answer from its own listener synchronously (a cached answer).
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const connection = connections.get(request.socket);
    if (connection !== undefined) connection.last = response;
    if (!draining) return;
    response.setHeader('connection', 'close');
    if (connection !== undefined) track(connection, response);
  });

  return {
    drain: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      await acceptWaiting(() => lastAccepted, Math.min(deadline, Date.now() + ACCEPT_LIMIT_MS));
      if (cluster.isWorker) {
        // The other workers may each take up to ACCEPT_LIMIT_MS to become quiet.
        await workerBarrier(server, Math.max(0, Math.min(deadline - Date.now(), 2 * ACCEPT_LIMIT_MS)));
      } else {
        const limit = Math.min(deadline, Date.now() + ACCEPT_LIMIT_MS);
        // Again while the barrier let others in: more may be queued behind them. Only starting
        // another barrier is bounded by the limit: a barrier itself waits up to the deadline,
        // since its probe is queued behind what the kernel held and nothing later can delay
        // it, while a loop busy with large answers may take seconds to reach it.
        for (let before = -1; before !== accepted && Date.now() < limit; ) {
          before = accepted + 1;
          await connectionBarrier(server, deadline);
        }
      }
      // net's close, not http's: http's also destroys every idle connection right away.
      if (server.listening) net.Server.prototype.close.call(server);
      // Only now: a client told to close before the listener is closed would reconnect at once.
      draining = true;
      const now = Date.now();
      for (const connection of connections.values()) {
        const { last, socket } = connection;
        // Idle: its grace starts now (when it fell idle was not noted, to spare every answer the cost).
        [connection.idleSince, connection.bytesRead] = [now, socket.bytesRead];
        if (last === null || isOver(last)) continue;
        // The connection's latest answer closes it: one before it would cut those after.
        if (!last.headersSent) last.setHeader('connection', 'close');
        track(connection, last);
      }
      const open = connections.size;
      return { open, cut: await waitForConnections(connections, deadline) };
    },
  };
}

/**
 * Resolves in the check phase right after a poll of the event loop (which accepts whatever
 * the kernel holds) that brought no connection, none having come for ACCEPT_QUIET_MS; or at
 * the limit.
 */
async function acceptWaiting(lastAccepted: () => number, limit: number): Promise<void> {
  for (;;) {
    const before = lastAccepted();
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    const quiet = lastAccepted() === before && performance.now() - before >= ACCEPT_QUIET_MS;
    if (quiet || Date.now() >= limit) return;
    if (lastAccepted() === before) await new Promise((resolve) => setTimeout(resolve, ACCEPT_QUIET_MS - (performance.now() - before)));
  }
}

/**
 * Under CPU load the kernel may not yet have finished handshakes that the clients already
 * see as established (loopback's softirq work deferred to ksoftirqd). A connection of our
 * own, queued behind them, is a barrier: once it is accepted, so are the ones before it.
 * (Under cluster, the primary accepts: cluster-drain.ts.)
 */
async function connectionBarrier(server: Server, limit: number): Promise<void> {
  const address = server.address();
  if (address === null || typeof address === 'string') return;
  const probe = net.connect({ port: address.port, host: probeHost(address.address) });
  probe.on('error', () => {});
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, Math.max(0, limit - Date.now()));
    function seen(socket: Socket) {
      if (socket.remotePort === probe.localPort) done();
    }
    function done() {
      clearTimeout(timer);
      server.off('connection', seen);
      resolve();
    }
    server.on('connection', seen);
  });
  probe.destroy();
}

function waitForConnections(connections: Map<Socket, Connection>, deadline: number): Promise<number> {
  return new Promise((resolve) => {
    let cut = 0;
    const sweep = () => {
      const now = Date.now();
      for (const [socket, connection] of connections) {
        if (connection.destroyed) continue;
        if (now >= deadline) {
          if (connection.active > 0) cut++;
          connection.destroyed = true;
          socket.destroy();
        } else if (connection.active === 0) {
          closeWhenQuiet(socket, connection, now);
        }
      }
      if (connections.size === 0) resolve(cut);
      else setTimeout(sweep, Math.max(0, Math.min(SWEEP_MS, deadline - now)));
    };
    sweep();
  });
}

/**
 * An idle connection still receiving bytes (a request on its way) gets more time. Quiet is
 * confirmed after the event loop has polled: when the loop was busy (a large answer
 * rendered), a request may be waiting in the kernel, unread, on a connection that looks idle.
 */
function closeWhenQuiet(socket: Socket, connection: Connection, now: number): void {
  if (socket.bytesRead !== connection.bytesRead) {
    connection.bytesRead = socket.bytesRead;
    connection.idleSince = now;
  } else if (now - connection.idleSince >= IDLE_GRACE_MS) {
    setImmediate(() => {
      if (connection.destroyed || connection.active > 0 || socket.bytesRead !== connection.bytesRead) return;
      connection.destroyed = true;
      socket.destroy();
    });
  }
}

/**
 * Resolves on the first SIGINT or SIGTERM. A second one then stops the process at once
 * (the default action), except in cluster workers: they also receive the terminal's
 * SIGINT beside the primary's SIGTERM, and must still drain.
 */
export function shutdownSignal(options: { ignoreRepeats: boolean }): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      if (options.ignoreRepeats) {
        process.on('SIGINT', ignore);
        process.on('SIGTERM', ignore);
      }
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

function ignore(): void {}
