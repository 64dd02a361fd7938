// The demo catalogue as the text of a catalogue file, made as it is read: what `demo`
// writes and what `serve --init-demo` imports, so neither holds the catalogue whole.
import { CatalogueTextFormat } from '../catalogue/dump.js';
import type { DemoRecord } from './options.js';

const RECORDS_PER_CHUNK = 500;

/** The file's text, a few hundred records a chunk. */
export function* demoFileChunks(records: Iterable<DemoRecord>): Generator<string> {
  const format = new CatalogueTextFormat();
  let chunk = format.start();
  let pending = 0;
  for (const { list, record } of records) {
    chunk += format.record(list, record);
    if (++pending === RECORDS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      pending = 0;
    }
  }
  yield chunk + format.end();
}
