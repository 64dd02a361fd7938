// Writes a catalogue as a file: one record per line, so files diff well and are written
// piece by piece rather than as one giant string.
import type { Catalogue } from './format.js';

const LISTS = ['authors', 'categories', 'sites', 'features', 'images', 'documents', 'media'] as const;

export function* catalogueChunks(catalogue: Catalogue): Generator<string> {
  yield `{"format":${JSON.stringify(catalogue.format)}`;
  for (const list of LISTS) {
    const records = catalogue[list];
    yield `,\n"${list}":[`;
    for (let i = 0; i < records.length; i++) yield `${i === 0 ? '\n' : ',\n'}${JSON.stringify(records[i])}`;
    yield records.length === 0 ? ']' : '\n]';
  }
  yield '\n}\n';
}

export function formatCatalogue(catalogue: Catalogue): string {
  return [...catalogueChunks(catalogue)].join('');
}
