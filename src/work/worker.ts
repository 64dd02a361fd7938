// A worker thread (pool.ts): opens its own store and runs the calls it is given, one at a
// time, answering each with its value or a failure. Ended by the main thread past a
// deadline; nothing here needs to clean up for that (a read holds no lock a writer needs
// beyond its own transaction, which ends with the connection).
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open.js';
import { StoreUnavailableError, type CatalogueStore } from '../store/store.js';
import { OFFLOADED_READS, toWire, type WorkerCall, type WorkerReply, type WorkerRequest, type WorkerSetup } from './protocol.js';

const setup = workerData as WorkerSetup;
let opened: Promise<CatalogueStore> | null = null;

/** Opened at the first call, kept for the worker's life. */
function store(): Promise<CatalogueStore> {
  opened ??= openStore(setup, { serving: true });
  return opened;
}

function reply(message: WorkerReply): void {
  parentPort?.postMessage(message);
}

async function run(request: WorkerCall): Promise<unknown> {
  if (!OFFLOADED_READS.includes(request.method)) throw new Error(`${request.method} is not a read a worker runs`);
  const reader = (await store()) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return reader[request.method]!(...request.args);
}

void store().catch(() => undefined).finally(() => reply({ kind: 'ready' }));

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.kind !== 'read') return;
  run(request).then(
    (value) => reply({ kind: 'done', value: toWire(value) }),
    (error: unknown) => reply({ kind: 'failed', message: (error as Error).message, unavailable: error instanceof StoreUnavailableError }),
  );
});
