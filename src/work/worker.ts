// A worker thread (pool.ts): opens its own store and runs the calls it is given, one at a
// time: a store read, a download (encoded here, sent a chunk at a time as the main thread
// asks), or a GeoPackage written into a file. Ended by the main thread past a deadline;
// nothing here needs to clean up for that (a read holds no lock a writer needs beyond its
// own transaction, which ends with the connection).
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open.js';
import { lowerThisThread } from './thread-priority.js';
import type { ItemRow } from '../store/ogc/ogc-plans.js';
import type { CatalogueStore } from '../store/store.js';
import {
  failureToWire, OFFLOADED_READS, toWire, type BuiltGeoPackage, type DownloadCall, type GeoPackageCall, type ReadCall, type WorkerCall, type WorkerReply,
  type WorkerRequest, type WorkerSetup,
} from './protocol.js';

const setup = workerData as WorkerSetup;

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
  if (!OFFLOADED_READS.includes(call.method)) throw new Error(`${call.method} is not a read a worker runs`);
  const reader = (await store()) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return toWire(await reader[call.method]!(...call.args));
}

async function download(call: DownloadCall, id: number): Promise<null> {
  const stream = await (await store()).itemStream(call.collection, call.query);
  try {
    reply({ kind: 'part', value: { version: stream.version, numberMatched: stream.numberMatched } });
    if (!(await nextCredit(id))) return null;
    const { encodeDownload } = await import('../render/ogc/downloads/encode.js');
    const source = { collection: call.collection, baseUrl: call.baseUrl, options: call.options, numberMatched: stream.numberMatched, batches: stream.batches() };
    for await (const chunk of encodeDownload(call.format, source)) {
      reply({ kind: 'part', value: chunk });
      if (!(await nextCredit(id))) break;
    }
    return null;
  } finally {
    await stream.close();
  }
}

async function geoPackage(call: GeoPackageCall): Promise<BuiltGeoPackage> {
  const stream = await (await store()).itemStream(call.collection, call.query);
  try {
    const { writeGeoPackage } = await import('../render/ogc/downloads/gpkg.js');
    async function* batches(): AsyncGenerator<readonly ItemRow[]> {
      for await (const rows of stream.batches()) {
        yield rows;
        reply({ kind: 'part', value: null });
      }
    }
    await writeGeoPackage({ collection: call.collection, baseUrl: call.baseUrl, options: call.options, numberMatched: stream.numberMatched, batches: batches() }, call.file);
    return { version: stream.version, numberMatched: stream.numberMatched };
  } finally {
    await stream.close();
  }
}

function run(call: WorkerCall, id: number): Promise<unknown> {
  switch (call.kind) {
    case 'read': return read(call);
    case 'download': return download(call, id);
    case 'geopackage': return geoPackage(call);
  }
}

void store().catch(() => undefined).finally(() => reply({ kind: 'ready', tid }));

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.kind === 'more') return heard(request);
  run(request, request.id).then(
    (value) => reply({ kind: 'done', value }),
    (error: unknown) => reply({ kind: 'failed', failure: failureToWire(error) }),
  );
});
