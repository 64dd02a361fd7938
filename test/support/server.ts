// A real server on a temporary SQLite database, loaded from a catalogue built in the test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Catalogue } from '../../src/catalogue/format.js';
import { loadConfig, type RawSettings } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openStore } from '../../src/store/open.js';
import { buildTestCatalogue } from './catalogue.js';

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  database: string;
  server: RunningServer;
  close(): Promise<void>;
}

export function temporaryDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-api-test-'));
}

export async function importInto(database: string, catalogue: Catalogue): Promise<void> {
  const store = await openStore(database, { create: true });
  try {
    await store.replaceCatalogue(catalogue);
  } finally {
    await store.close();
  }
}

export async function startTestServer(
  options: { catalogue?: Catalogue; settings?: RawSettings } = {},
): Promise<TestServer> {
  const dir = temporaryDir();
  const database = path.join(dir, 'catalogue.db');
  await importInto(database, options.catalogue ?? buildTestCatalogue());
  const config = loadConfig({ database, port: '0', host: '127.0.0.1', logLevel: 'silent', ...options.settings }, {});
  const server = await startServer(config);
  const port = new URL(server.address).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port: Number(port),
    database,
    server,
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
