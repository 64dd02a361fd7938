// A real server, listening on a socket, on a temporary database of the tests' store (see
// stores.ts), loaded from a catalogue built in the test. Suites that need no socket use
// in-process.ts instead.
import fs from 'node:fs';
import type { Catalogue } from '../../src/catalogue/format.js';
import { loadConfig, type RawSettings } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { isPostgresUrl, openStore } from '../../src/store/open.js';
import { replaceCatalogue } from '../../src/store/replace.js';
import { buildTestCatalogue } from './catalogue.js';
import { keptImport } from './kept-imports.js';
import { request, type HttpTarget } from './http.js';
import { createTestDatabase, type TestDatabase } from './stores.js';
import { temporaryDir } from './temporary.js';

export { temporaryDir };

export interface TestServer extends HttpTarget {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  /** Selects the server's database on the command line: --db (and --schema). */
  dbArgs: string[];
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * Imports a catalogue into a database given as a SQLite path or as settings. Into a SQLite
 * file that does not exist yet, the file an earlier import of the same catalogue made is
 * copied instead when there is one (kept-imports.ts).
 */
export async function importInto(database: string | RawSettings, catalogue: Catalogue): Promise<void> {
  const settings = typeof database === 'string' ? { database } : database;
  const importFresh = async () => {
    const store = await openStore(loadConfig(settings, {}), { create: true });
    try {
      await replaceCatalogue(store, catalogue);
    } finally {
      await store.close();
    }
  };
  const file = settings.database;
  const freshSqliteFile = Object.keys(settings).length === 1 && typeof file === 'string' && !isPostgresUrl(file) && !fs.existsSync(file);
  return freshSqliteFile ? keptImport(file, catalogue, importFresh) : importFresh();
}

/**
 * What every test server and app is given unless its test says otherwise: a deadline for
 * machines that run a dozen suites at once on two cores. There a read is slow because it
 * waits for a core, not because it is costly, and the served default (800 ms; a turn waited
 * for at most 5 of them, a GeoPackage build 10) refused the docs' examples and the site's
 * pages in CI. The bounds themselves are tested with the settings they name
 * (work-deadline.test.ts, the isolation tests' real `serve` with its defaults).
 */
export const TEST_DEFAULTS = { dbTimeoutMs: '5000' } as const satisfies RawSettings;

export async function startTestServer(
  options: { catalogue?: Catalogue; settings?: RawSettings; database?: TestDatabase } = {},
): Promise<TestServer> {
  const database = options.database ?? createTestDatabase();
  await importInto(database.settings, options.catalogue ?? buildTestCatalogue());
  // Kept GeoPackages in a folder of the server's own, removed with it (not the machine's shared one).
  const downloads = temporaryDir();
  const settings = { ...TEST_DEFAULTS, ...database.settings, port: '0', host: '127.0.0.1', logLevel: 'silent', downloadCacheDir: downloads, ...options.settings };
  const server = await startServer(loadConfig(settings, {}));
  const port = new URL(server.address).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port: Number(port),
    request: (pathAndQuery, requestOptions) => request(origin, pathAndQuery, requestOptions),
    dbArgs: database.args,
    server,
    close: async () => {
      await server.close();
      await database.drop();
      fs.rmSync(downloads, { recursive: true, force: true });
    },
  };
}
