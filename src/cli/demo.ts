import { demoRecords, type DemoRecord } from '../demo/demo.js';
import { demoFileChunks } from '../demo/file.js';
import { emptyCounts, type CatalogueCounts } from '../catalogue/checker.js';
import { writeOutput } from './io.js';
import { seconds, step, summariseCounts } from './report.js';

export interface DemoOptions {
  out?: string;
  scale: number;
  seed: number;
}

/** A deterministic, realistic demo catalogue of Whitechapel, written as it is generated. */
export async function runDemo(options: DemoOptions): Promise<number> {
  const started = performance.now();
  const counts = emptyCounts();
  const records = counted(demoRecords({ scale: options.scale, seed: options.seed }), counts);
  await step(`Generating ${options.out ?? 'standard output'}`, () => writeOutput(demoFileChunks(records), options.out));
  process.stderr.write(`Generated ${summariseCounts(counts)} in ${seconds(started)}.\n`);
  return 0;
}

/** The records, counted on their way to the file. */
function* counted(records: Iterable<DemoRecord>, counts: CatalogueCounts): Generator<DemoRecord> {
  for (const item of records) {
    const { list, record } = item;
    counts[list]++;
    if ((list === 'images' || list === 'documents' || list === 'media') && 'published' in record && record.published) counts.published[list]++;
    yield item;
  }
}
