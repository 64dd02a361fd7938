import { readCatalogueFile } from './catalogue-file.js';
import { summarise } from './report.js';

/** The import's checks without a database. */
export async function runValidate(file: string): Promise<number> {
  const catalogue = await readCatalogueFile(file);
  if (catalogue === null) return 1;
  process.stdout.write(`${file === '-' ? 'standard input' : file} is a valid catalogue: ${summarise(catalogue)}.\n`);
  return 0;
}
