// `diff OLD NEW`: the change file between two catalogue files, both streamed and checked as
// `import` checks them, in bounded memory (changes/diff.ts). Nothing is written unless both
// files are valid.
import { loadConfig, type RawSettings } from '../config.js';
import { changeFileChunks, describeChanges, emptyChangeCounts, NewRecords, OldRecords, type ChangeCounts } from '../changes/diff.js';
import { FileLog, PutSpool } from '../changes/spool.js';
import type { CatalogueSink } from '../catalogue/lists.js';
import { checkCatalogueFile } from './catalogue-stream.js';
import { CliError, writeOutput } from './io.js';
import { seconds, sourceName } from './report.js';

export async function runDiff(oldFile: string, newFile: string, out: string | undefined, settings: RawSettings): Promise<number> {
  if (oldFile === '-' && newFile === '-') throw new CliError('only one of the two files can be standard input (-)');
  const started = performance.now();
  const limits = loadConfig(settings).catalogueLimits;
  const read = async (file: string, sink?: CatalogueSink) => (await checkCatalogueFile(file, { label: `Reading ${sourceName(file)}`, sink, limits })).ok;
  const old = new OldRecords();
  if (!(await read(oldFile, old))) {
    await read(newFile); // its problems too, so that one run lists everything to fix
    return 1;
  }
  old.seal();
  const spool = new PutSpool(new FileLog());
  try {
    if (!(await read(newFile, new NewRecords(old, spool)))) return 1;
    const counts = emptyChangeCounts();
    await writeOutput(changeFileChunks(old, spool, counts), out);
    process.stderr.write(summary(`${sourceName(oldFile)} and ${sourceName(newFile)}`, counts, started));
    return 0;
  } finally {
    spool.close();
  }
}

function summary(files: string, counts: ChangeCounts, started: number): string {
  const changes = describeChanges(counts);
  if (changes === null) return `No difference: ${files} hold the same catalogue (the change file written is empty).\n`;
  return `Changes from ${files}: ${changes} (${seconds(started)}).\n`;
}
