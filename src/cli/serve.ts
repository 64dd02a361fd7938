import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, type Config, type RawSettings } from '../config.js';
import { startServer, type RunningServer } from '../server.js';
import { shutdownSignal } from '../shutdown.js';
import { perWorkerLimitWarning } from '../http/operations/rate-limit.js';
import { describeDatabase, isPostgresUrl } from '../store/open.js';
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
  if (demoMedia !== null && !worker && !fs.existsSync(given.database)) await (await import('./init-demo.js')).buildDemoDatabase(given, demoMedia);
  // The demo's pictures are served unless a media root was given.
  const config = given.mediaRoot === null && demoMedia !== null && fs.existsSync(demoMedia) ? loadConfig({ ...settings, mediaRoot: demoMedia }) : given;
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
