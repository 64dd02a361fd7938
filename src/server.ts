// startServer: open the store, build the app, listen. Timeouts are set deliberately and
// close() drains requests in flight before closing the store.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openStore } from './store/open.js';
import { loggerOptions } from './http/request-log.js';
import { trackConnections } from './shutdown.js';

export interface RunningServer {
  app: FastifyInstance;
  /** Where it listens, e.g. http://127.0.0.1:8000 */
  address: string;
  /** Drains: requests in flight finish (at most config.shutdownTimeoutMs), then the store closes. */
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const store = await openStore(config, { serving: true });
  try {
    const app = await buildApp({ store, config, logger: loggerOptions(config) });
    // Timeouts and limits: src/http/limits.ts, passed to Fastify by buildApp.
    const connections = trackConnections(app.server);
    const address = await app.listen({ port: config.port, host: config.host });
    return {
      app,
      address,
      close: async () => {
        const { open, cut } = await connections.drain(config.shutdownTimeoutMs);
        if (cut > 0) app.log.warn({ open, cut }, `shutdown: ${cut} request(s) still in progress after ${config.shutdownTimeoutMs} ms were cut`);
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
