import { catalogueChunksFrom } from '../catalogue/dump.js';
import type { RecordBatch } from '../store/export-rows.js';
import { loadConfig, type RawSettings } from '../config.js';
import { describeDatabase, openStore } from '../store/open.js';
import { writeOutput } from './io.js';
import { emptyCounts, type CatalogueCounts } from '../catalogue/checker.js';
import { ProgressDisplay, seconds, summariseCounts } from './report.js';

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
    if (list === 'images' || list === 'documents' || list === 'media') counted.published[list] += records.filter((r) => (r as { published: boolean }).published).length;
    progress.update({ done: (done += records.length), total: null });
    yield batch;
  }
  progress.finish();
}
