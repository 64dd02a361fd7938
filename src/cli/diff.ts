// `diff OLD NEW`: the change file between two catalogue files, both streamed and checked as
// `import` checks them, in bounded memory (changes/diff.ts). Nothing is written unless both
// files are valid.
import { loadConfig, type RawSettings } from '../config.js';
import { changeFileChunks, describeChanges, emptyChangeCounts, NewRecords, OldRecords } from '../changes/diff.js';
import { FileLog, PutSpool } from '../changes/spool.js';
import type { CatalogueLimits } from '../catalogue/limits.js';
import { checkCatalogueFile, sourceName } from './catalogue-stream.js';
import { CliError, writeOutput } from './io.js';
import { seconds } from './report.js';

export async function runDiff(oldFile: string, newFile: string, out: string | undefined, settings: RawSettings): Promise<number> {
  if (oldFile === '-' && newFile === '-') throw new CliError('only one of the two files can be standard input (-)');
  const started = performance.now();
  const limits = loadConfig(settings).catalogueLimits;
  const old = new OldRecords();
  if (!(await checkCatalogueFile(oldFile, { label: `Reading ${sourceName(oldFile)}`, sink: old, limits })).ok) {
    // The new file's problems too, so that one run shows everything to fix.
    await checkCatalogueFile(newFile, { label: `Reading ${sourceName(newFile)}`, limits });
    return 1;
  }
  old.seal();
  const spool = new PutSpool(new FileLog());
  try {
    return await diffAgainst(old, spool, newFile, out, limits, () => `${sourceName(oldFile)} and ${sourceName(newFile)}`, started);
  } finally {
    spool.close();
  }
}

async function diffAgainst(old: OldRecords, spool: PutSpool, newFile: string, out: string | undefined, limits: CatalogueLimits, names: () => string, started: number): Promise<number> {
  const result = await checkCatalogueFile(newFile, { label: `Reading ${sourceName(newFile)}`, sink: new NewRecords(old, spool), limits });
  if (!result.ok) return 1;
  const counts = emptyChangeCounts();
  await writeOutput(changeFileChunks(old, spool, counts), out);
  const changes = describeChanges(counts);
  process.stderr.write(changes === null
    ? `No difference: ${names()} hold the same catalogue (the change file written is empty).\n`
    : `Changes from ${names()}: ${changes} (${seconds(started)}).\n`);
  return 0;
}
