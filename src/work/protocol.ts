// What the main thread and a worker thread (worker.ts) say to each other: calls in, parts
// and answers out. Values cross by structured clone, which keeps plain data only: a stored
// footprint's JsonText crosses as a tagged object and a tile's Buffer as a Uint8Array, both
// made whole again on arrival (`fromWire`).
import { JsonText } from '../json-text.js';
import type { StoreConfig } from '../store/open.js';

/** What a worker opens its own store with. */
export type WorkerSetup = Pick<StoreConfig, 'database' | 'databaseSchema' | 'poolSize' | 'dbTimeoutMs'>;

/** The store reads a worker runs: the CatalogueReader methods that take a turn of a class (classes.ts). */
export const OFFLOADED_READS = ['list', 'items', 'tile', 'matchIds', 'streetBuildings', 'buildingLabels', 'itemIds', 'extents', 'overview'] as const;
export type OffloadedRead = (typeof OFFLOADED_READS)[number];

/** A call a worker runs. */
export type WorkerCall = { kind: 'read'; method: OffloadedRead; args: unknown[] };

export type WorkerRequest =
  | (WorkerCall & { id: number })
  /** A streaming call's next part is wanted. */
  | { kind: 'more' };

export type WorkerReply =
  /** Loaded, its store open (or failed to open: the first call says why). */
  | { kind: 'ready' }
  | { kind: 'part'; value: unknown }
  | { kind: 'done'; value: unknown }
  | { kind: 'failed'; message: string; unavailable: boolean };

const TAG = '\u0001jsonText';

/** JsonText and Buffers as structured clone keeps them. */
export function toWire(value: unknown): unknown {
  if (value instanceof JsonText) return { [TAG]: value.text };
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
  const record = value as Record<string, unknown>;
  const text = record[TAG];
  if (typeof text === 'string') return new JsonText(text);
  for (const key of Object.keys(record)) record[key] = fromWire(record[key]);
  return record;
}
