// A worker thread (pool.ts): opens its own store and runs the calls it is given, one at a
// time: a declared read, or a declared job (a download, encoded here and sent a chunk at a
// time as the main thread asks; a GeoPackage written into a file), each found by name in
// the registry module the main thread names (src/reads.ts): the faces are loaded there.
// Ended by the main thread past a deadline; nothing here needs to clean up for that (a read
// holds no lock a writer needs beyond its own transaction, which ends with the connection).
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open.js';
import type { CatalogueStore } from '../store/store.js';
import { lowerThisThread } from './thread-priority.js';
import { failureToWire, toWire, type JobCall, type ReadCall, type WorkerCall, type WorkerReply, type WorkerRequest, type WorkerSetup } from './protocol.js';
import { readInline, type WorkRegistry } from './reads.js';

const setup: WorkerSetup = workerData;

// This thread yields the cores to the main thread: on a machine whose cores the costly work
// fills, the event loop still answers cheap requests at once. Without a thread id the
// deadline is the wall clock's (pool.ts).
const tid = lowerThisThread();
let opened: Promise<CatalogueStore> | null = null;

/** Opened at start, kept for the worker's life; a failed opening is tried again by the next call. */
function store(): Promise<CatalogueStore> {
  if (opened === null) {
    opened = openStore(setup, { serving: true });
    opened.catch(() => (opened = null));
  }
  return opened;
}

const registry: Promise<WorkRegistry> = import(setup.registry).then((module: { WORK_REGISTRY: WorkRegistry }) => module.WORK_REGISTRY);

function reply(message: WorkerReply): void {
  parentPort?.postMessage(message);
}

/**
 * The main thread's next word on a streaming call: true for "more", false for "stop". A
 * "stop" may come while a chunk is still being made (the client gone meanwhile), or before
 * its call has started: it is kept, by the call's id, for that call's next wait, which would
 * otherwise wait for ever and hold this worker and its snapshot.
 */
let credit: { id: number; give: (more: boolean) => void } | null = null;
let stopFor: number | null = null;
const nextCredit = (id: number) => {
  if (stopFor === id) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => (credit = { id, give: resolve }));
};

function heard(word: { id: number; stop: boolean }): void {
  if (credit !== null && credit.id === word.id) {
    const { give } = credit;
    credit = null;
    give(!word.stop);
  } else if (word.stop) {
    stopFor = word.id;
  }
}

async function read(call: ReadCall): Promise<unknown> {
  const declared = (await registry).reads.find((r) => r.name === call.name);
  if (declared === undefined) throw new Error(`${call.name} is not a read a worker runs`);
  return toWire(await readInline(await store(), declared, call.args));
}

async function job(call: JobCall, id: number): Promise<unknown> {
  const declared = (await registry).jobs.find((j) => j.name === call.name);
  if (declared === undefined) throw new Error(`${call.name} is not a job a worker runs`);
  const context = { store: await store(), part: (value: unknown) => reply({ kind: 'part', value }), more: () => nextCredit(id) };
  return toWire(await declared.run(context, call.args));
}

function run(call: WorkerCall, id: number): Promise<unknown> {
  switch (call.kind) {
    case 'read': return read(call);
    case 'job': return job(call, id);
  }
}

void Promise.all([store(), registry]).catch(() => undefined).finally(() => reply({ kind: 'ready', tid }));

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.kind === 'more') return heard(request);
  run(request, request.id).then(
    (value) => reply({ kind: 'done', value }),
    async (error: unknown) => reply({ kind: 'failed', failure: failureToWire(error, (await registry.catch(() => null))?.errors ?? []) }),
  );
});
