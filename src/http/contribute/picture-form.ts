// A picture's multipart form read within bounds (issue 45). Its fields come first (the page
// puts csrf before the file); at the file part `admit` checks them and takes an upload slot,
// so no slot is ever held by a request that has not shown a session and a valid csrf. From
// then on the file must keep coming: a pause past IDLE_MS, the connection closing before the
// body ends, a file past its limit, or a broken body ends the read with an ApiError, and the
// slot is given back on every path (the caller holds it on success, and releases it then).
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { ApiError, CONTRIBUTE_ERRORS } from '../../errors.js';
import { StoreUnavailableError } from '../../store/store.js';
import { errorCode } from './forms.js';

/** The longest a picture's bytes may pause once its slot is taken (the whole body is bounded by REQUEST_TIMEOUT_MS). */
export const UPLOAD_IDLE_MS = 10_000;

export interface PictureForm {
  fields: Record<string, string>;
  /** The file's bytes; null when the form had none (then no slot was taken). */
  bytes: Buffer | null;
  /** Gives the slot back (a no-op when none was taken); call once the picture is dealt with. */
  release: () => void;
}

/** Checks the fields sent before the file and takes a slot, or throws (403, 503); `gone` aborts when the connection closes early (a place in line is then given up). */
export type Admit = (fields: Record<string, string>, gone: AbortSignal) => Promise<() => void>;

/** `fields`: where the fields are put as they come, so that a caller still has those read before a refusal. */
export async function readPictureForm(request: FastifyRequest, admit: Admit, idleMs = UPLOAD_IDLE_MS, fields: Record<string, string> = {}): Promise<PictureForm> {
  const closed = closedEarly(request.raw);
  let release: () => void = () => undefined;
  let bytes: Buffer | null = null;
  try {
    const parts = request.parts()[Symbol.asyncIterator]();
    for (let next = await Promise.race([parts.next(), closed.promise]); !next.done; next = await Promise.race([parts.next(), closed.promise])) {
      const part = next.value;
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || bytes !== null) {
        part.file.resume();
        continue;
      }
      release = await admitted(admit(fields, closed.signal), closed.promise);
      // The sender's file name and type are never read: the bytes alone say what it is.
      bytes = await readFile(part.file, closed.promise, idleMs);
    }
    return { fields, bytes, release };
  } catch (error) {
    release();
    // A refusal of ours (a stale form; no slot, or no store: 503) is said as itself; only the parser's failures are "cannot be read".
    if (error instanceof ApiError || error instanceof StoreUnavailableError) throw error;
    if (errorCode(error) === 'FST_REQ_FILE_TOO_LARGE') throw CONTRIBUTE_ERRORS.pictureTooLarge();
    throw CONTRIBUTE_ERRORS.badUpload();
  } finally {
    closed.stop();
  }
}

/** A slot, unless the connection closes first: then the slot, when it comes, is given back at once. */
async function admitted(entering: Promise<() => void>, closed: Promise<never>): Promise<() => void> {
  try {
    return await Promise.race([entering, closed]);
  } catch (error) {
    entering.then((release) => release(), () => undefined);
    throw error;
  }
}

/** Rejects (400), and aborts its signal, when the request's connection closes before its body has ended. */
function closedEarly(raw: IncomingMessage): { promise: Promise<never>; signal: AbortSignal; stop(): void } {
  const gone = new AbortController();
  let onClose: () => void = () => undefined;
  const promise = new Promise<never>((_, reject) => {
    onClose = () => {
      if (raw.complete) return;
      const why = CONTRIBUTE_ERRORS.badUpload();
      gone.abort(why);
      reject(why);
    };
    raw.once('close', onClose);
    if (raw.destroyed && !raw.complete) onClose();
  });
  promise.catch(() => undefined);
  return { promise, signal: gone.signal, stop: () => raw.off('close', onClose) };
}

/** The file's bytes, or a rejection when they pause past `idleMs`, the connection closes, or the limit is passed. */
function readFile(file: Readable & { truncated?: boolean }, closed: Promise<never>, idleMs: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = (error: unknown, value?: Buffer) => {
      clearTimeout(timer);
      file.off('data', onData).off('end', onEnd).off('error', finish);
      if (error === null && value !== undefined) return resolve(value);
      file.destroy();
      reject(error);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(CONTRIBUTE_ERRORS.uploadStalled(Math.round(idleMs / 1000))), idleMs);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if (file.truncated) return finish(CONTRIBUTE_ERRORS.pictureTooLarge());
      arm();
    };
    const onEnd = () => (file.truncated ? finish(CONTRIBUTE_ERRORS.pictureTooLarge()) : finish(null, Buffer.concat(chunks)));
    file.on('data', onData).once('end', onEnd).once('error', finish);
    closed.catch(finish);
    arm();
  });
}
