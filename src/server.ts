// startServer: open the store, build the app, listen. Timeouts are set deliberately and
// close() drains requests in flight before closing the store.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openStore } from './store/open.js';

export interface RunningServer {
  app: FastifyInstance;
  /** Where it listens, e.g. http://127.0.0.1:8000 */
  address: string;
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const store = await openStore(config, { serving: true });
  try {
    const app = await buildApp({ store, config, logger: { level: config.logLevel } });
    app.server.requestTimeout = 30_000;
    app.server.headersTimeout = 10_000;
    app.server.keepAliveTimeout = 5_000;
    const address = await app.listen({ port: config.port, host: config.host });
    return {
      app,
      address,
      close: async () => {
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
