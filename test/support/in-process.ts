// The app in process, driven by Fastify's inject(): the same hooks, routes and answers as a
// listening server (buildApp never listens; startServer only adds the socket), without a
// socket, a port or a connection per request. What needs a socket stays on server.ts: raw
// request targets, connection limits and timeouts, shutdown, several processes, and the fast
// path for cached answers, which listens on node's request event (fast-answers.test.ts
// proves its answers are Fastify's, byte for byte).
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Catalogue } from '../../src/catalogue/format.js';
import { loadConfig, type RawSettings } from '../../src/config.js';
import { logDestination, loggerOptions } from '../../src/http/operations/request-log.js';
import { openStore } from '../../src/store/open.js';
import { buildTestCatalogue } from './catalogue.js';
import { checkedAnswer, type Answer, type HttpTarget, type RequestOptions } from './http.js';
import { importInto, TEST_DEFAULTS, temporaryDir } from './server.js';
import { createTestDatabase, testStoreKind, withPgClient, type TestDatabase } from './stores.js';

/**
 * The origin in-process apps are asked under (their Host header), so links in their answers
 * begin with it. Port 9 (discard): a test that wrongly dials it gets a refusal, not a server.
 */
export const IN_PROCESS_ORIGIN = 'http://127.0.0.1:9';

/** light-my-request resolves targets against this base, as WHATWG URLs. */
const INJECT_BASE = 'http://localhost';

export interface TestApp extends HttpTarget {
  app: FastifyInstance;
  close(): Promise<void>;
}

/** startTestServer's twin without a socket: a temporary database of the tests' store, loaded. */
export async function startTestApp(
  options: { catalogue?: Catalogue; settings?: RawSettings; database?: TestDatabase } = {},
): Promise<TestApp> {
  const database = options.database ?? createTestDatabase();
  await importInto(database.settings, options.catalogue ?? buildTestCatalogue());
  return appOnDatabase(database, options.settings);
}

/** What makes a database as an older heritage-api left it: SQL run on each store after the import. */
export interface OlderSchema {
  sqlite: string;
  /** Run with the catalogue's schema first on the search path. */
  postgres: string;
}

/**
 * The app on a catalogue imported, then taken back to an older schema (`older`), then
 * brought up to date as `serve` and `import` bring it (openStore with create): what an
 * upgrade leaves. close() drops the database.
 */
export async function appAfterUpgrade(catalogue: Catalogue, older: OlderSchema): Promise<TestApp> {
  const database = createTestDatabase();
  await (await startTestApp({ catalogue, database: { ...database, drop: async () => undefined } })).close();
  if (testStoreKind() === 'sqlite') {
    const db = new Database(String(database.settings.database));
    db.exec(older.sqlite);
    db.close();
  } else {
    await withPgClient(async (client) => {
      await client.query(`SET search_path = ${database.settings.databaseSchema}, public`);
      await client.query(older.postgres);
    });
  }
  await (await openStore(loadConfig({ ...database.settings, logLevel: 'silent' }, {}), { create: true })).close();
  return appOnDatabase(database);
}

/** The app on a database as it stands (nothing imported first); close() drops the database. */
export async function appOnDatabase(database: TestDatabase, settings: RawSettings = {}): Promise<TestApp> {
  // Kept GeoPackages in a folder of the app's own, removed with it (not the machine's shared one).
  const downloads = temporaryDir();
  const config = loadConfig({ ...TEST_DEFAULTS, ...database.settings, logLevel: 'silent', downloadCacheDir: downloads, ...settings }, {});
  const store = await openStore(config, { serving: true });
  const log = await logDestination(config);
  const app = await buildApp({ store, config, logger: loggerOptions(config, log?.stream) });
  await app.ready();
  return {
    origin: IN_PROCESS_ORIGIN,
    app,
    request: (pathAndQuery, requestOptions) => injectRequest(app, pathAndQuery, requestOptions),
    close: async () => {
      await app.close();
      await log?.close();
      await store.close();
      await database.drop();
      fs.rmSync(downloads, { recursive: true, force: true });
    },
  };
}

/** One request through inject(), checked against the OpenAPI document like a socket's. */
export async function injectRequest(app: FastifyInstance, pathAndQuery: string, options: RequestOptions = {}): Promise<Answer> {
  assertSentAsWritten(pathAndQuery);
  const headers = { host: new URL(IN_PROCESS_ORIGIN).host, ...options.headers };
  const method = options.method ?? 'GET';
  const response = await app.inject({ method, url: pathAndQuery, headers, ...(options.body === undefined ? {} : { payload: options.body }) });
  return checkedAnswer(pathAndQuery, options, response.statusCode, incomingHeaders(response.headers), response.rawPayload);
}

/**
 * inject() parses the target as a URL, which removes dot segments, decodes `%2e`, escapes
 * spaces and drops an empty `?`: a test of such a target would test something else than it
 * says. Those targets belong on a socket (rawRequest, or request() on startTestServer).
 */
function assertSentAsWritten(pathAndQuery: string): void {
  const url = new URL(INJECT_BASE + pathAndQuery);
  const sent = url.pathname + url.search;
  if (!pathAndQuery.startsWith('/') || sent !== pathAndQuery) {
    throw new Error(`inject() would send ${JSON.stringify(sent)} for ${JSON.stringify(pathAndQuery)}: ask a server on a socket instead`);
  }
}

/** Headers as a client reads them: strings, a repeated header's values joined (but Set-Cookie). */
function incomingHeaders(headers: OutgoingHttpHeaders): IncomingHttpHeaders {
  const incoming: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === 'set-cookie') incoming[name] = Array.isArray(value) ? value : [String(value)];
    else incoming[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return incoming;
}
