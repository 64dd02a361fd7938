// What the main thread and a worker thread (worker.ts) say to each other: calls in, parts
// and answers out. Values cross by structured clone, which keeps plain data only: a stored
// footprint's JsonText crosses as a tagged object and a tile's Buffer as a Uint8Array, both
// made whole again on arrival (`fromWire`); a SharedArrayBuffer is shared, not copied.
import { errorMessage } from '../caught.js';
import { JsonText } from '../json-text.js';
import { StoreError, StoreUnavailableError } from '../store/store.js';
import type { StoreConfig } from '../store/open.js';
import type { CrossingError } from './reads.js';

/** What a worker opens its own store with, and the module (src/reads.ts) its reads and jobs are found in. */
export type WorkerSetup = Pick<StoreConfig, 'database' | 'databaseSchema' | 'poolSize' | 'dbTimeoutMs'> & { registry: string };

/** A declared read (reads.ts), by its name. */
export interface ReadCall { kind: 'read'; name: string; args: unknown[] }

/** A declared job (a download, a file built), by its name: its parts as it sends them, then its answer. */
export interface JobCall { kind: 'job'; name: string; args: unknown }

/** A call a worker runs. */
export type WorkerCall = ReadCall | JobCall;

export type WorkerRequest =
  | (WorkerCall & { id: number })
  /** Call `id`'s next part is wanted, or (stop) no more are. */
  | { kind: 'more'; id: number; stop: boolean };

export type WorkerReply =
  /** Loaded, its store open (or failed to open: the first call says why). */
  | { kind: 'ready'; tid: number | null }
  | { kind: 'part'; value: unknown }
  | { kind: 'done'; value: unknown }
  | { kind: 'failed'; failure: WireFailure };

/** A failure as it crosses: one of the registry's crossing errors (a refused filter stays a 400), the database away a 503. */
export type WireFailure =
  | { kind: 'crossing'; name: string; message: string; details: unknown }
  | { kind: 'unavailable'; message: string }
  | { kind: 'other'; message: string };

export function failureToWire(error: unknown, crossing: readonly CrossingError[]): WireFailure {
  const message = errorMessage(error);
  for (const { name, details } of crossing) {
    const carried = details(error);
    if (carried !== undefined) return { kind: 'crossing', name, message, details: carried };
  }
  if (error instanceof StoreUnavailableError) return { kind: 'unavailable', message };
  return { kind: 'other', message };
}

export function failureFromWire(failure: WireFailure, crossing: readonly CrossingError[]): Error {
  switch (failure.kind) {
    case 'crossing': {
      const known = crossing.find((c) => c.name === failure.name);
      return known ? known.remake(failure.message, failure.details) : new StoreError(`a worker thread failed: ${failure.message}`);
    }
    case 'unavailable': return new StoreUnavailableError(failure.message);
    case 'other': return new StoreError(`a worker thread failed: ${failure.message}`);
  }
}

const TAG = '\u0001jsonText';

/** JsonText and Buffers as structured clone keeps them. */
export function toWire(value: unknown): unknown {
  if (value instanceof JsonText) return { [TAG]: value.text };
  // Crosses as itself, shared (box-index.ts): a clone of its properties would be empty.
  if (value instanceof SharedArrayBuffer) return value;
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map(toWire);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = toWire(item);
  return out;
}

/** What toWire sent, made whole again. */
export function fromWire(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = fromWire(value[i]);
    return value;
  }
  const text: unknown = Reflect.get(value, TAG);
  if (typeof text === 'string') return new JsonText(text);
  for (const key of Object.keys(value)) Reflect.set(value, key, fromWire(Reflect.get(value, key)));
  return value;
}

/**
 * A worker's answer as the declaration that asked for it types it: structured clone checks no
 * type, and both sides run the same declaration, so here (the one place) it is taken on trust.
 */
export function crossed<R>(value: unknown): R {
  return fromWire(value) as R;
}
