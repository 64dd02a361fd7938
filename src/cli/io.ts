// Writing catalogue, change and GIS files: to stdout, into what is already at the path, or
// atomically (a temporary file renamed into place).
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { errorCode } from '../caught.js';

export class CliError extends Error {}

type Chunks = Iterable<string | Buffer> | AsyncIterable<string | Buffer>;

/** Chunk by chunk, waiting whenever the stream's buffer is full (bounded memory). */
async function writeChunks(stream: NodeJS.WritableStream, chunks: Chunks): Promise<void> {
  for await (const chunk of chunks) if (!stream.write(chunk)) await once(stream, 'drain');
}

/**
 * Where the output goes: a regular file (or none yet) is replaced atomically, at the path a
 * symbolic link leads to, so that the link stays; a FIFO or a character device (/dev/null,
 * a terminal) is written into, as a shell's `>` would, never replaced by a file of ours; a
 * descriptor link (/dev/stdout, /dev/fd/N: links into /proc/PID/fd) is that descriptor,
 * whatever it holds (standard output may be a pipe, a socket or a file).
 */
type Target =
  | { readonly kind: 'stream'; readonly stream: NodeJS.WritableStream }
  | { readonly kind: 'into'; readonly file: string }
  | { readonly kind: 'replace'; readonly file: string };

const isMissing = (error: unknown) => errorCode(error) === 'ENOENT';

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function realFolderOrNull(file: string): string | null {
  try {
    return fs.realpathSync(path.dirname(file));
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** As many hops as Linux follows (ELOOP past it). */
const MAX_LINKS = 40;
const DESCRIPTORS = /^\/proc\/(\d+)\/fd$/;

/**
 * The path a chain of symbolic links leads to, or the descriptor it names when it passes
 * through a process's fd folder (whose entries' targets are no paths: `pipe:[…]`).
 */
function followLinks(out: string): { file: string } | { pid: number; fd: number } {
  let file = path.resolve(out);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    const folder = realFolderOrNull(file);
    if (folder === null) return { file }; // a link to nothing: said by the caller
    const descriptors = DESCRIPTORS.exec(folder);
    if (descriptors !== null) return { pid: Number(descriptors[1]), fd: Number(path.basename(file)) };
    if (lstatOrNull(file)?.isSymbolicLink() !== true) return { file };
    file = path.resolve(path.dirname(file), fs.readlinkSync(file));
  }
  throw new CliError(`${out} is a chain of more than ${MAX_LINKS} symbolic links.`);
}

/** What a path that is not a regular file is, for a refusal. */
function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSocket()) return 'a socket';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a file';
}

function targetOf(out: string): Target {
  const own = lstatOrNull(out);
  if (own === null) return { kind: 'replace', file: out };
  const followed = followLinks(out);
  if ('fd' in followed) {
    if (followed.pid === process.pid && followed.fd === 1) return { kind: 'stream', stream: process.stdout };
    if (followed.pid === process.pid && followed.fd === 2) return { kind: 'stream', stream: process.stderr };
    return { kind: 'into', file: out };
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(followed.file);
  } catch (error) {
    if (isMissing(error)) throw new CliError(`${out} is a symbolic link to nothing (${followed.file}): remove it or give another path.`);
    throw error;
  }
  if (stat.isFIFO() || stat.isCharacterDevice()) return { kind: 'into', file: out };
  if (!stat.isFile()) throw new CliError(`${out} is ${kindOf(stat)}: the output must be a file, a FIFO or a character device (or - for standard output).`);
  return { kind: 'replace', file: followed.file };
}

/** Into what is there (a FIFO waits for its reader), never replacing it. */
async function writeInto(file: string, chunks: Chunks): Promise<void> {
  const stream = fs.createWriteStream(file);
  try {
    await writeChunks(stream, chunks);
    stream.end();
    await once(stream, 'finish');
  } catch (error) {
    stream.destroy();
    throw error;
  }
}

/** A temporary file beside it, renamed over it once whole: a reader sees the old file or the new one. */
async function replaceAtomically(file: string, chunks: Chunks): Promise<void> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const stream = fs.createWriteStream(temporary);
  try {
    await writeChunks(stream, chunks);
    stream.end();
    await once(stream, 'finish');
    fs.renameSync(temporary, file);
  } catch (error) {
    stream.destroy();
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** To stdout when `out` is absent or `-`; otherwise to the path, as targetOf says. */
export async function writeOutput(chunks: Chunks, out: string | undefined): Promise<void> {
  if (out === undefined || out === '-') return writeChunks(process.stdout, chunks);
  const target = targetOf(out);
  if (target.kind === 'stream') return writeChunks(target.stream, chunks);
  return target.kind === 'into' ? writeInto(target.file, chunks) : replaceAtomically(target.file, chunks);
}
