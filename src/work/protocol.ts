// What the main thread and a worker thread (worker.ts) say to each other: calls in, parts
// and answers out. Values cross by structured clone, which keeps plain data only: a stored
// footprint's JsonText crosses as a tagged object and a tile's Buffer as a Uint8Array, both
// made whole again on arrival (`fromWire`).
import { JsonText } from '../json-text.js';
import { Cql2Error, type Cql2ErrorDetails } from '../ogc/cql2/errors.js';
import { StoreError, StoreUnavailableError } from '../store/store.js';
import type { DownloadFormat } from '../ogc/downloads.js';
import type { CatalogueCollection } from '../catalogue/collections.js';
import type { ItemsQuery } from '../store/ogc-plans.js';
import type { ItemOptions } from '../render/ogc/items.js';
import type { StoreConfig } from '../store/open.js';

/** What a worker opens its own store with. */
export type WorkerSetup = Pick<StoreConfig, 'database' | 'databaseSchema' | 'poolSize' | 'dbTimeoutMs'>;

/** The store reads a worker runs: the CatalogueReader methods that take a turn of a class (classes.ts). */
export const OFFLOADED_READS = ['list', 'items', 'matchIds', 'streetBuildings', 'buildingLabels', 'yearCounts', 'searchCards', 'itemIds', 'extents', 'overview'] as const;
export type OffloadedRead = (typeof OFFLOADED_READS)[number];

export interface ReadCall { kind: 'read'; method: OffloadedRead; args: unknown[] }

/** What a download or a GeoPackage is made of: the whole result of an items query. */
interface ItemsFile {
  collection: CatalogueCollection;
  query: ItemsQuery;
  options: ItemOptions;
  /** Absolute base of the URL properties. */
  baseUrl: string;
}

/** A streamed download: a first part `DownloadHead`, then the file's bytes a part at a time, each when asked for. */
export interface DownloadCall extends ItemsFile {
  kind: 'download';
  format: Exclude<DownloadFormat, 'gpkg'>;
}

export interface DownloadHead {
  version: number;
  numberMatched: number;
}

/** A GeoPackage written whole into `file` (a part, `null`, after each batch: the deadline runs per batch). */
export interface GeoPackageCall extends ItemsFile {
  kind: 'geopackage';
  file: string;
}

export interface BuiltGeoPackage {
  version: number;
  numberMatched: number;
}

/** A call a worker runs. */
export type WorkerCall = ReadCall | DownloadCall | GeoPackageCall;

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

/** A failure as it crosses: a filter the store's SQL builder refused stays a Cql2Error (a 400), the database away a 503. */
export type WireFailure =
  | { kind: 'cql2'; message: string; details: Cql2ErrorDetails }
  | { kind: 'unavailable'; message: string }
  | { kind: 'other'; message: string };

export function failureToWire(error: unknown): WireFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Cql2Error) return { kind: 'cql2', message, details: { position: error.position, path: error.path, expected: error.expected } };
  if (error instanceof StoreUnavailableError) return { kind: 'unavailable', message };
  return { kind: 'other', message };
}

export function failureFromWire(failure: WireFailure): Error {
  switch (failure.kind) {
    case 'cql2': return new Cql2Error(failure.message, failure.details);
    case 'unavailable': return new StoreUnavailableError(failure.message);
    case 'other': return new StoreError(`a worker thread failed: ${failure.message}`);
  }
}

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
