// The OGC face's work for the executor's worker threads (src/work/reads.ts): a download
// encoded there and sent a chunk at a time as its client reads, a GeoPackage written whole
// into a file, and a filter the SQL builder refused, which crosses back as itself (a 400).
// The encoders are loaded by the worker when first asked for, not by the main thread.
import { type CatalogueCollection } from '../../catalogue/collections.js';
import { Cql2Error, type Cql2ErrorDetails, type TextPosition } from '../../ogc/cql2/errors.js';
import type { DownloadFormat } from '../../ogc/downloads.js';
import type { ItemOptions } from '../../render/ogc/items.js';
import { openItemStream, type ItemRow, type ItemsQuery } from '../../store/ogc/ogc-plans.js';
import type { Readable } from 'node:stream';
import type { GuardedStore } from '../../work/guarded-store.js';
import type { CrossingError, JobDeclaration } from '../../work/reads.js';
import type { GeoPackageBuilder } from './kept-geopackages.js';

/** What a download or a GeoPackage is made of: the whole result of an items query. */
interface ItemsFile {
  collection: CatalogueCollection;
  query: ItemsQuery;
  options: ItemOptions;
  /** Absolute base of the URL properties. */
  baseUrl: string;
}

export interface DownloadRequest extends ItemsFile {
  format: Exclude<DownloadFormat, 'gpkg'>;
}

/** A download's first part: then its bytes. */
export interface DownloadHead {
  version: number;
  numberMatched: number;
}

export interface GeoPackageRequest extends ItemsFile {
  file: string;
}

export interface BuiltGeoPackage {
  version: number;
  numberMatched: number;
}

/** A streamed download: its head, then the file's bytes a part at a time, each when asked for. */
export const downloadJob: JobDeclaration<DownloadRequest, null, DownloadHead | Uint8Array> = {
  name: 'download',
  workClass: 'downloads',
  async run({ store, part, more }, request) {
    const stream = await openItemStream(store, request.collection, request.query);
    try {
      part({ version: stream.version, numberMatched: stream.numberMatched });
      if (!(await more())) return null;
      const { encodeDownload } = await import('../../render/ogc/downloads/encode.js');
      const source = { collection: request.collection, baseUrl: request.baseUrl, options: request.options, numberMatched: stream.numberMatched, batches: stream.batches() };
      for await (const chunk of encodeDownload(request.format, source)) {
        part(chunk);
        if (!(await more())) break;
      }
      return null;
    } finally {
      await stream.close();
    }
  },
};

/** A GeoPackage written whole into `file`, a part (`null`) after each batch: the deadline runs per batch. */
export const geoPackageJob: JobDeclaration<GeoPackageRequest, BuiltGeoPackage, null> = {
  name: 'geopackage',
  workClass: 'builds',
  async run({ store, part }, request) {
    const stream = await openItemStream(store, request.collection, request.query);
    try {
      const { writeGeoPackage } = await import('../../render/ogc/downloads/gpkg.js');
      async function* batches(): AsyncGenerator<readonly ItemRow[]> {
        for await (const rows of stream.batches()) {
          yield rows;
          part(null);
        }
      }
      await writeGeoPackage({ collection: request.collection, baseUrl: request.baseUrl, options: request.options, numberMatched: stream.numberMatched, batches: batches() }, request.file);
      return { version: stream.version, numberMatched: stream.numberMatched };
    } finally {
      await stream.close();
    }
  },
};

/** A filter the store's SQL builder refused, from a worker: still a Cql2Error (a 400). */
export const CQL2_CROSSING: CrossingError = {
  name: 'cql2',
  details: (error) => (error instanceof Cql2Error ? { position: error.position, path: error.path, expected: error.expected } : undefined),
  remake: (message, details) => new Cql2Error(message, cql2Details(details)),
};

function cql2Details(value: unknown): Cql2ErrorDetails {
  if (typeof value !== 'object' || value === null) return {};
  const position = 'position' in value && isTextPosition(value.position) ? value.position : undefined;
  const path = 'path' in value && typeof value.path === 'string' ? value.path : undefined;
  const expected = 'expected' in value && Array.isArray(value.expected) ? value.expected.filter((e): e is string => typeof e === 'string') : undefined;
  return { position, path, expected };
}

function isTextPosition(value: unknown): value is TextPosition {
  return typeof value === 'object' && value !== null && 'line' in value && typeof value.line === 'number' && 'column' in value && typeof value.column === 'number' && 'offset' in value && typeof value.offset === 'number';
}

/** What the OGC face asks of the executor for its files (guarded-store.ts). */
export type FileWork = Pick<GuardedStore, 'stream' | 'build'>;

/** A download made in a worker thread, in a turn of `downloads` held until its body ends. */
export async function startDownload(work: FileWork, request: DownloadRequest): Promise<DownloadHead & { body: Readable }> {
  const { head, body } = await work.stream(downloadJob, request);
  return { version: head.version, numberMatched: head.numberMatched, body };
}

/** A GeoPackage written whole into `request.file` in a worker thread, in a turn of `builds`. */
export function buildGeoPackage(work: FileWork, request: GeoPackageRequest): Promise<BuiltGeoPackage> {
  return work.build(geoPackageJob, request);
}

/** The kept GeoPackages' builder (kept-geopackages.ts) over the executor. */
export function geoPackageBuilder(work: FileWork & Pick<GuardedStore, 'databaseIdentity'>): GeoPackageBuilder {
  return { databaseIdentity: () => work.databaseIdentity(), buildGeoPackage: (request) => buildGeoPackage(work, request) };
}
