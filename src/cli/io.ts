// Writing catalogue files atomically (or to stdout).
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

export class CliError extends Error {}

/** Chunk by chunk, waiting whenever the stream's buffer is full (bounded memory). */
async function writeChunks(stream: NodeJS.WritableStream, chunks: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): Promise<void> {
  for await (const chunk of chunks) if (!stream.write(chunk)) await once(stream, 'drain');
}

/** To stdout when `out` is absent or `-`; otherwise a temporary file renamed into place. */
export async function writeOutput(chunks: Iterable<string | Buffer> | AsyncIterable<string | Buffer>, out: string | undefined): Promise<void> {
  if (out === undefined || out === '-') return writeChunks(process.stdout, chunks);
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  const temporary = `${out}.${process.pid}.tmp`;
  const stream = fs.createWriteStream(temporary);
  try {
    await writeChunks(stream, chunks);
    stream.end();
    await once(stream, 'finish');
    fs.renameSync(temporary, out);
  } catch (error) {
    stream.destroy();
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
