// Graceful shutdown. On drain the listener closes at once (new connections are refused);
// every request already received is answered in full, with `Connection: close`; a request
// arriving on an open keep-alive connection during the drain is served the same way (not
// refused: the client could not know); idle connections are closed once they have been
// quiet for IDLE_GRACE_MS; at the deadline whatever is left is closed.
//
// node's own server.close() closes idle connections at once, which also catches a
// connection accepted a moment ago whose request has not been read yet; the short grace
// lets such a request arrive and be answered.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';

/** How long a connection with no request in progress is left open during a drain. */
export const IDLE_GRACE_MS = 250;
const SWEEP_MS = 50;

interface Connection {
  active: Set<ServerResponse>;
  idleSince: number;
  bytesRead: number;
  destroyed: boolean;
}

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
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: new Set(), idleSince: Date.now(), bytesRead: 0, destroyed: false });
    socket.once('close', () => connections.delete(socket));
  });
  // Prepended: Fastify may answer from its own listener synchronously (a cached answer).
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const connection = connections.get(request.socket);
    if (draining) response.setHeader('connection', 'close');
    if (connection === undefined) return;
    connection.active.add(response);
    response.once('close', () => {
      connection.active.delete(response);
      connection.idleSince = Date.now();
      connection.bytesRead = request.socket.bytesRead;
    });
  });

  return {
    drain: (timeoutMs) => {
      draining = true;
      const open = connections.size;
      for (const { active } of connections.values()) {
        for (const response of active) if (!response.headersSent) response.setHeader('connection', 'close');
      }
      // net's close, not http's: http's also destroys every idle connection right away.
      if (server.listening) net.Server.prototype.close.call(server);
      return waitForConnections(connections, Date.now() + timeoutMs).then((cut) => ({ open, cut }));
    },
  };
}

function waitForConnections(connections: Map<Socket, Connection>, deadline: number): Promise<number> {
  return new Promise((resolve) => {
    let cut = 0;
    const sweep = () => {
      const now = Date.now();
      for (const [socket, connection] of connections) {
        if (connection.destroyed) continue;
        if (now >= deadline) {
          if (connection.active.size > 0) cut++;
          connection.destroyed = true;
          socket.destroy();
        } else if (connection.active.size === 0) {
          closeWhenQuiet(socket, connection, now);
        }
      }
      if (connections.size === 0) resolve(cut);
      else setTimeout(sweep, Math.max(0, Math.min(SWEEP_MS, deadline - now)));
    };
    sweep();
  });
}

/** An idle connection still receiving bytes (a request on its way) gets more time. */
function closeWhenQuiet(socket: Socket, connection: Connection, now: number): void {
  if (socket.bytesRead !== connection.bytesRead) {
    connection.bytesRead = socket.bytesRead;
    connection.idleSince = now;
  } else if (now - connection.idleSince >= IDLE_GRACE_MS) {
    connection.destroyed = true;
    socket.destroy();
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
