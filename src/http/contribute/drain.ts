// A refused upload's body read to its end and thrown away before the refusal is sent. Node
// closes a connection whose request body was left unread, and a browser still sending a
// picture into the closed socket shows a network error, never the page saying why (503 busy,
// 403 a stale form, 413 too large): servers such as nginx linger so for the same reason.
// Bounded, so the politeness costs no more than taking the upload would have.
import type { IncomingMessage } from 'node:http';

/** Resolves once the body has ended, or `maxBytes` more were read, or `ms` passed; a body declared larger is not read. */
export function drainBody(raw: IncomingMessage, maxBytes: number, ms: number): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) done();
    };
    const timer = setTimeout(done, ms);
    raw.on('data', onData).once('end', done).once('error', done).once('close', done);
    raw.resume();
  });
}
