import { catalogueChunksFrom } from '../catalogue/dump.js';
import type { RecordBatch } from '../store/export-rows.js';
import { loadConfig, type RawSettings } from '../config.js';
import { describeDatabase, openStore } from '../store/open.js';
import { CliError, writeOutput } from './io.js';
import type { DownloadFormat } from '../ogc/downloads.js';
import { isCatalogueCollection, CATALOGUE_COLLECTIONS } from '../catalogue/collections.js';
import { encodeDownload } from '../render/ogc/downloads/encode.js';
import { ALL_OF_EACH_ITEM } from '../render/ogc/items.js';
import { WHOLE_COLLECTION } from '../store/ogc-plans.js';
import { emptyCounts, type CatalogueCounts } from '../catalogue/checker.js';
import { ProgressDisplay, seconds, summariseCounts } from './report.js';

/** What `export --format` writes: the catalogue file (the default) or a collection as a GIS file. */
export type ExportFormat = 'catalogue' | DownloadFormat;

/**
 * A collection's published records as the OGC items path's download writes them (the same
 * encoder, from one snapshot); URL properties start with BASE_URL, or http://HOST:PORT.
 */
export async function runFormatExport(settings: RawSettings, format: DownloadFormat, collection: string, out?: string): Promise<number> {
  if (!isCatalogueCollection(collection)) throw new CliError(`--collection must be one of ${CATALOGUE_COLLECTIONS.join(', ')}; got ${collection}.`);
  const started = performance.now();
  const config = loadConfig(settings);
  const store = await openStore(config);
  let written = 0;
  try {
    const stream = await store.itemStream(collection, WHOLE_COLLECTION);
    const progress = new ProgressDisplay(`Exporting ${collection} of ${describeDatabase(config)} as ${format}`, 'records');
    async function* counted() {
      for await (const rows of stream.batches()) {
        written += rows.length;
        progress.update({ done: written, total: stream.numberMatched });
        yield rows;
      }
      progress.finish();
    }
    try {
      const baseUrl = config.baseUrl ?? `http://${config.host}:${config.port}`;
      const chunks = encodeDownload(format, { collection, baseUrl, options: ALL_OF_EACH_ITEM, numberMatched: stream.numberMatched, batches: counted() });
      await writeOutput(chunks, out);
    } finally {
      await stream.close();
    }
  } finally {
    await store.close();
  }
  process.stderr.write(`Exported ${written} ${collection} as ${format} in ${seconds(started)}.\n`);
  return 0;
}

/** The stored catalogue as a file that imports back to an identical API, streamed in batches. */
export async function runExport(settings: RawSettings, out?: string): Promise<number> {
  const started = performance.now();
  const config = loadConfig(settings);
  const store = await openStore(config);
  const counted = emptyCounts();
  try {
    await writeOutput(catalogueChunksFrom(counting(store.exportCatalogue(), counted, `Exporting ${describeDatabase(config)}`)), out);
  } finally {
    await store.close();
  }
  process.stderr.write(`Exported ${summariseCounts(counted)} in ${seconds(started)}.\n`);
  return 0;
}

/** Batches passed on unchanged, counted, with progress on a terminal. */
async function* counting(batches: AsyncIterable<RecordBatch>, counted: CatalogueCounts, label: string): AsyncGenerator<RecordBatch> {
  const progress = new ProgressDisplay(label, 'records');
  let done = 0;
  for await (const batch of batches) {
    const { list, records } = batch;
    counted[list] += records.length;
    if (list === 'images' || list === 'documents' || list === 'media') counted.published[list] += records.filter((r) => 'published' in r && r.published).length;
    progress.update({ done: (done += records.length), total: null });
    yield batch;
  }
  progress.finish();
}
