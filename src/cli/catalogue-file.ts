// Read and validate a catalogue file, reporting every problem; shared by import and validate.
import type { Catalogue } from '../catalogue/format.js';
import { parseCatalogueBytes } from '../catalogue/validate.js';
import { readInput } from './io.js';
import { printProblems, step } from './report.js';

/** The validated catalogue, or null after printing its problems. */
export async function readCatalogueFile(file: string): Promise<Catalogue | null> {
  const source = file === '-' ? 'standard input' : file;
  const bytes = await step(`Reading ${source}`, () => readInput(file));
  const result = await step('Validating', () => parseCatalogueBytes(bytes));
  if (result.ok) return result.catalogue;
  printProblems(source, result.problems);
  return null;
}
