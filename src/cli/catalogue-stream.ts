// A catalogue file (or standard input) checked as a stream, each record handed to a sink as
// it passes; progress on a terminal. Shared by import (sink: the store) and validate.
import fs from 'node:fs';
import type { CatalogueSink } from '../catalogue/lists.js';
import type { CheckResult } from '../catalogue/checker.js';
import type { CatalogueLimits } from '../catalogue/limits.js';
import { checkCatalogueStream } from '../catalogue/validate.js';
import { CliError } from './io.js';
import { printProblems, ProgressDisplay } from './report.js';

const CHUNK_BYTES = 1 << 20;

export function sourceName(file: string): string {
  return file === '-' ? 'standard input' : file;
}

/** The file's chunks; a file that cannot be opened is one sentence. */
async function openChunks(file: string): Promise<{ chunks: AsyncIterable<Uint8Array>; size: number | null }> {
  if (file === '-') return { chunks: process.stdin, size: null };
  try {
    const handle = await fs.promises.open(file);
    const { size } = await handle.stat();
    return { chunks: handle.createReadStream({ highWaterMark: CHUNK_BYTES }), size };
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
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
  const { chunks, size } = await openChunks(file);
  const progress = new ProgressDisplay(options.label, 'MB');
  const megabytes = (bytes: number) => Math.round(bytes / 1e6);
  const result = await checkCatalogueStream(chunks, {
    sink: options.sink,
    limits: options.limits,
    afterChunk: async (bytesRead) => {
      await options.flush?.();
      progress.update({ done: megabytes(bytesRead), total: size === null ? null : megabytes(size) });
    },
  });
  progress.finish();
  if (!result.ok) printProblems(sourceName(file), result.problems, result.total);
  return result;
}
