import { generateDemoCatalogue } from '../catalogue/demo.js';
import { catalogueChunks } from '../catalogue/dump.js';
import { writeOutput } from './io.js';
import { seconds, step, summarise } from './report.js';

export interface DemoOptions {
  out?: string;
  scale: number;
  seed: number;
}

/** A deterministic, realistic demo catalogue of Whitechapel. */
export async function runDemo(options: DemoOptions): Promise<number> {
  const started = performance.now();
  const catalogue = await step('Generating', () => generateDemoCatalogue({ scale: options.scale, seed: options.seed }));
  await step(`Writing ${options.out ?? 'standard output'}`, () => writeOutput(catalogueChunks(catalogue), options.out));
  process.stderr.write(`Generated ${summarise(catalogue)} in ${seconds(started)}.\n`);
  return 0;
}
