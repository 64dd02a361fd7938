import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, type Config, type RawSettings } from '../config.js';
import { startServer, type RunningServer } from '../server.js';
import { shutdownSignal } from '../shutdown.js';
import { perWorkerLimitWarning } from '../http/operations/rate-limit.js';
import { Accounts } from '../accounts/accounts.js';
import { describeDatabase, isPostgresUrl } from '../store/open.js';
import type { CatalogueStore } from '../store/store.js';
import { checkMediaRoot, explainListenError, unservedPicturesWarning } from './serve-checks.js';
import { isFirstWorker, isWorkerProcess, leaveCluster, runPrimary } from './workers.js';

export interface ServeOptions extends RawSettings {
  initDemo?: boolean;
  workers?: number;
}

/** Serve until SIGINT/SIGTERM, then drain requests in flight and exit. */
export async function runServe(options: ServeOptions): Promise<number> {
  const { initDemo, workers = 1, ...settings } = options;
  const given = loadConfig(settings);
  const worker = isWorkerProcess();
  const demoMedia = initDemo && !isPostgresUrl(given.database) ? path.join(path.dirname(given.database), 'media') : null;
  const builtNow = demoMedia !== null && !worker && !fs.existsSync(given.database);
  if (builtNow) await (await import('./init-demo.js')).buildDemoDatabase(given, demoMedia);
  // Contributions on for the demo's own database only (built now, or by an earlier demo start), never one of the user's.
  const demoContributes = demoMedia !== null && (builtNow || fs.existsSync(demoEditorFile(given)));
  // The demo's pictures are served unless a media root was given; and people may contribute, unless told otherwise.
  const config = demoMedia === null ? given : loadConfig({ ...settings, ...demoSettings(given, settings, demoMedia, demoContributes) });
  checkMediaRoot(config.mediaRoot);
  if (workers > 1 && !worker) {
    process.stderr.write(`heritage-api: starting ${workers} worker processes.\n`);
    const warning = perWorkerLimitWarning(config, workers);
    if (warning !== null) process.stderr.write(`heritage-api: ${warning}\n`);
    return runPrimary(workers, config);
  }
  // Listened for before starting: a signal during start-up stops the server once it is up,
  // instead of node's default action killing the process mid-way.
  const signalled = shutdownSignal({ ignoreRepeats: worker });
  const server = await startExplained(config, worker);
  // Before the line saying it serves, which is what a script waits for.
  if (demoContributes && config.contributions && isFirstWorker()) process.stderr.write(`${await demoEditor(server.store, demoEditorFile(config), server.address)}\n`);
  process.stderr.write(`heritage-api ${worker ? `worker ${process.pid} ` : ''}serving ${describeDatabase(config)} at ${server.address}/api/v1/\n`);
  const signal = await signalled;
  const who = `heritage-api${worker ? ` worker ${process.pid}` : ''}`;
  await stopBeingReady(server, signal, who, config.shutdownDelayMs);
  process.stderr.write(`${who}: ${signal}: no new connections; finishing the requests in flight (at most ${config.shutdownTimeoutMs} ms).\n`);
  await server.close();
  process.stderr.write(`${who}: stopped.\n`);
  if (worker) leaveCluster();
  // Everything is closed; a handle left open by mistake must not keep the process alive.
  setTimeout(() => process.exit(), 2000).unref();
  return 0;
}

/** The demo's settings a user left unset: its pictures' folder, contributions on, pictures waiting beside the database. */
function demoSettings(given: Config, settings: RawSettings, demoMedia: string, contributes: boolean): RawSettings {
  const dir = path.dirname(given.database);
  const media = given.mediaRoot === null && fs.existsSync(demoMedia) ? { mediaRoot: demoMedia } : {};
  if (!contributes) return media;
  return {
    ...media,
    ...(settings.contributions === undefined && process.env.CONTRIBUTIONS === undefined ? { contributions: '1' } : {}),
  };
}

/**
 * The demo's editor, made at its first start with a random password kept beside the database
 * (readable by its owner alone), so that whoever runs the demo can sign in and approve.
 */
async function demoEditor(store: Pick<CatalogueStore, 'transact'>, file: string, address: string): Promise<string> {
  if (!fs.existsSync(file)) {
    const password = randomBytes(12).toString('base64url');
    const made = await new Accounts(store).create(DEMO_EDITOR, password, { role: 'editor' });
    if ('problem' in made) return `heritage-api: the demo editor could not be made: ${made.problem}`;
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  }
  const password = fs.readFileSync(file, 'utf8').trim();
  return `heritage-api: contributions are on; sign in at ${address}/account/signin as the demo editor: ${DEMO_EDITOR}, password ${password} (kept in ${file})`;
}

const DEMO_EDITOR = 'demo-editor';
const demoEditorFile = (config: Pick<Config, 'database'>) => path.join(path.dirname(config.database), 'demo-editor.txt');

/**
 * SIGTERM (an orchestrator, a deploy): /readyz fails at once and new connections are still
 * served for the delay, so that load balancers stop sending before the listener closes.
 * SIGINT (Ctrl-C at a terminal) skips the delay.
 */
async function stopBeingReady(server: RunningServer, signal: NodeJS.Signals, who: string, delayMs: number): Promise<void> {
  server.stopBeingReady();
  if (signal !== 'SIGTERM' || delayMs === 0) return;
  process.stderr.write(`${who}: ${signal}: /readyz answers 503; still serving new connections for ${delayMs} ms.\n`);
  await sleep(delayMs);
}

/** startServer with its failures as one sentence, and a warning when pictures would answer 404. */
async function startExplained(config: Config, worker: boolean): Promise<RunningServer> {
  const server = await startServer(config).catch((error: unknown) => {
    // A worker's IPC channel would keep it alive: leave, so that it exits and the primary sees it.
    if (worker) leaveCluster();
    throw explainListenError(error, config);
  });
  // Once per server (by the process, or its first worker), before the line saying it serves.
  const warning = isFirstWorker() ? await unservedPicturesWarning(server.store, config) : null;
  if (warning !== null) process.stderr.write(`heritage-api: ${warning}\n`);
  return server;
}
