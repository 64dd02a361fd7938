// A catalogue file's text (a file, standard input, or text made as it is read) checked as a
// stream, each record handed to a sink as it passes; progress on a terminal. Shared by
// import and serve --init-demo (sink: the store) and validate.
import fs from 'node:fs';
import type { CatalogueSink } from '../catalogue/lists.js';
import type { CheckResult } from '../catalogue/checker.js';
import type { CatalogueLimits } from '../catalogue/limits.js';
import { checkCatalogueStream } from '../catalogue/validate.js';
import { CliError } from './io.js';
import { printProblems, printWarnings, ProgressDisplay, sourceName } from './report.js';
import { errorCode, errorMessage } from '../caught.js';

const CHUNK_BYTES = 1 << 20;

/** Where a catalogue file's text comes from, as it arrives. */
export interface CatalogueSource {
  /** What messages call it. */
  name: string;
  chunks: AsyncIterable<Uint8Array>;
  /** In bytes, when known (progress). */
  size: number | null;
  /** Lets go of a file not read to its end (a refusal before or while reading); a no-op once it has been. */
  close(): Promise<void>;
}

const nothingToClose = async (): Promise<void> => undefined;

/** The file's chunks (`-`: standard input); a file that cannot be opened is one sentence. */
export async function openCatalogueFile(file: string): Promise<CatalogueSource> {
  const name = sourceName(file);
  if (file === '-') return { name, chunks: process.stdin, size: null, close: nothingToClose };
  try {
    const handle = await fs.promises.open(file);
    const { size } = await handle.stat();
    const stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
    return { name, chunks: stream, size, close: () => closeStream(stream) };
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${errorCode(error) === 'ENOENT' ? 'no such file' : errorMessage(error)}`);
  }
}

/** Destroying the stream closes its file: left to the garbage collector, node warns on standard error. */
function closeStream(stream: fs.ReadStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('close', () => resolve());
    stream.destroy();
  });
}

/** Text made as it is read (the demo) as a source. */
export function textSource(name: string, chunks: Iterable<string>): CatalogueSource {
  async function* encoded(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  return { name, chunks: encoded(), size: null, close: nothingToClose };
}

export interface StreamCheckOptions {
  label: string;
  sink?: CatalogueSink;
  /** Between chunks: the sink writes what it holds. */
  flush?: () => Promise<void>;
  limits: CatalogueLimits;
}

/** Checks the file as it streams; prints its problems (capped) when it is refused. */
export async function checkCatalogueFile(file: string, options: StreamCheckOptions): Promise<CheckResult> {
  const source = await openCatalogueFile(file);
  try {
    return await checkCatalogueSource(source, options);
  } finally {
    await source.close();
  }
}

/** Checks the text as it streams; prints its problems (capped) when it is refused. */
export async function checkCatalogueSource(source: CatalogueSource, options: StreamCheckOptions): Promise<CheckResult> {
  const progress = new ProgressDisplay(options.label, 'MB');
  const megabytes = (bytes: number) => Math.round(bytes / 1e6);
  const result = await checkCatalogueStream(source.chunks, {
    sink: options.sink,
    limits: options.limits,
    afterChunk: async (bytesRead) => {
      await options.flush?.();
      progress.update({ done: megabytes(bytesRead), total: source.size === null ? null : megabytes(source.size) });
    },
  });
  progress.finish();
  if (!result.ok) printProblems(source.name, result.problems, result.total);
  printWarnings(source.name, result);
  return result;
}
