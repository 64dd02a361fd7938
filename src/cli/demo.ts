import { demoRecords, type DemoRecord } from '../demo/demo.js';
import { emptyCounts, type CatalogueCounts } from '../catalogue/checker.js';
import { CatalogueTextFormat } from '../catalogue/dump.js';
import { writeOutput } from './io.js';
import { seconds, step, summariseCounts } from './report.js';

export interface DemoOptions {
  out?: string;
  scale: number;
  seed: number;
}

const RECORDS_PER_CHUNK = 500;

/** A deterministic, realistic demo catalogue of Whitechapel, written as it is generated. */
export async function runDemo(options: DemoOptions): Promise<number> {
  const started = performance.now();
  const counts = emptyCounts();
  const records = demoRecords({ scale: options.scale, seed: options.seed });
  await step(`Generating ${options.out ?? 'standard output'}`, () => writeOutput(demoChunks(records, counts), options.out));
  process.stderr.write(`Generated ${summariseCounts(counts)} in ${seconds(started)}.\n`);
  return 0;
}

/** The file's text, a few hundred records a chunk, counted on the way. */
function* demoChunks(records: Iterable<DemoRecord>, counts: CatalogueCounts): Generator<string> {
  const format = new CatalogueTextFormat();
  let chunk = format.start();
  let pending = 0;
  for (const { list, record } of records) {
    counts[list]++;
    if ((list === 'images' || list === 'documents' || list === 'media') && (record as { published: boolean }).published) counts.published[list]++;
    chunk += format.record(list, record);
    if (++pending === RECORDS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      pending = 0;
    }
  }
  yield chunk + format.end();
}
