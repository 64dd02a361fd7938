// startServer: open the store, build the app, listen. Timeouts are set deliberately and
// close() drains requests in flight before closing the store.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openStore } from './store/open.js';
import type { CatalogueReader, CatalogueStore } from './store/store.js';
import { logDestination, loggerOptions } from './http/operations/request-log.js';
import { trackConnections } from './shutdown.js';

export interface RunningServer {
  app: FastifyInstance;
  /** Where it listens, e.g. http://127.0.0.1:8000 */
  address: string;
  /** The store it serves, for start-up checks (serve's warnings). */
  store: CatalogueReader & Pick<CatalogueStore, 'transact'>;
  /** From now on /readyz answers 503; everything else is served as before. */
  stopBeingReady(): void;
  /**
   * Drains (/readyz 503, connections waiting in the kernel accepted, listener closed, requests
   * in flight finished within config.shutdownTimeoutMs), then the store closes.
   */
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const store = await openStore(config, { serving: true });
  const log = await logDestination(config);
  try {
    const readiness = { stopping: false };
    const app = await buildApp({ store, config, logger: loggerOptions(config, log?.stream), readiness });
    // Timeouts and limits: src/http/protocol/limits.ts, passed to Fastify by buildApp.
    const connections = trackConnections(app.server);
    const address = await app.listen({ port: config.port, host: config.host });
    return {
      app,
      address,
      stopBeingReady: () => {
        readiness.stopping = true;
      },
      store,
      close: async () => {
        readiness.stopping = true;
        const { open, cut } = await connections.drain(config.shutdownTimeoutMs);
        if (cut > 0) app.log.warn({ open, cut }, `shutdown: ${cut} request(s) still in progress after ${config.shutdownTimeoutMs} ms were cut`);
        await app.close();
        log?.close();
        await store.close();
      },
    };
  } catch (error) {
    log?.close();
    await store.close();
    throw error;
  }
}
