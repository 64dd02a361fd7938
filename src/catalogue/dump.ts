// Writes a catalogue as a file: one record per line, so files diff well and are written
// piece by piece rather than as one giant string. One formatter for every source: an
// in-memory catalogue, records as they are generated (demo), or batches from a store (export).
import { CATALOGUE_FORMAT, type Catalogue } from './format.js';
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from './lists.js';

/** The file's text around records that arrive list by list, in file order. */
export class CatalogueTextFormat {
  private list = -1;
  private count = 0;

  start(): string {
    return `{"format":${JSON.stringify(CATALOGUE_FORMAT)}`;
  }

  /** One record's line, after the headers (and closings) of the lists before it. */
  record(list: ListName, record: CatalogueRecord): string {
    const opening = this.advanceTo(CATALOGUE_LISTS.indexOf(list));
    return `${opening}${this.count++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`;
  }

  end(): string {
    return `${this.advanceTo(CATALOGUE_LISTS.length)}\n}\n`;
  }

  /** Closes the current list and opens each list up to `target` (empty ones written `[]`). */
  private advanceTo(target: number): string {
    let text = '';
    while (this.list < target) {
      if (this.list >= 0) text += this.count === 0 ? ']' : '\n]';
      this.list++;
      this.count = 0;
      if (this.list < CATALOGUE_LISTS.length) text += `,\n"${CATALOGUE_LISTS[this.list]}":[`;
    }
    return text;
  }
}

export function* catalogueChunks(catalogue: Catalogue): Generator<string> {
  const format = new CatalogueTextFormat();
  yield format.start();
  for (const list of CATALOGUE_LISTS) for (const record of catalogue[list]) yield format.record(list, record);
  yield format.end();
}

/** The text of batches of records (a store's export), one chunk per batch. */
export async function* catalogueChunksFrom(batches: AsyncIterable<{ list: ListName; records: CatalogueRecord[] }>): AsyncGenerator<string> {
  const format = new CatalogueTextFormat();
  yield format.start();
  for await (const { list, records } of batches) yield records.map((record) => format.record(list, record)).join('');
  yield format.end();
}

export function formatCatalogue(catalogue: Catalogue): string {
  return [...catalogueChunks(catalogue)].join('');
}
